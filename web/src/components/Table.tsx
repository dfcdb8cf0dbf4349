import type { ComponentChildren } from 'preact';

/** A column without a visible heading (a row's buttons), still named for screen readers. */
export const ACTIONS = <span class="visually-hidden">Actions</span>;

/** A data table that scrolls sideways on a narrow screen, with column headers and an optional caption. */
export function Table({ caption, columns, children }: { caption?: ComponentChildren; columns: ComponentChildren[]; children: ComponentChildren }) {
  return (
    <div class="table-wrap">
      <table>
        {caption && <caption>{caption}</caption>}
        <thead>
          <tr>
            {columns.map((column, i) => (
              <th key={i} scope="col">
                {column}
              </th>
            ))}
          </tr>
        </thead>
        <tbody>{children}</tbody>
      </table>
    </div>
  );
}
