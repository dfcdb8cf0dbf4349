import type { ComponentChildren } from 'preact';
import { CopyButton } from './CopyButton';

/** A secret the server shows only once (an API key, a webhook secret), with a copy button. */
export function ShownOnce({ title, value, testId, children }: { title: string; value: string; testId: string; children?: ComponentChildren }) {
  return (
    <div class="callout" role="status">
      <p>
        <strong>{title}</strong> Copy it now: it is shown only this once.
      </p>
      <p class="key-row">
        <code data-testid={testId}>{value}</code>
        <CopyButton value={value} />
      </p>
      {children}
    </div>
  );
}
