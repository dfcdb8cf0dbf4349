/**
 * The event types a channel carries, as checkboxes in plain words, Pro-only ones marked and
 * offered to Pro only: one control for a webhook endpoint and a watchlist's emails, since both
 * choose from the same events under the same tier rules.
 */
import type { EventType } from '../generated/schema';
import { EVENT_TYPES } from '../webhooks';

export function EventTypeChoices({ legend, chosen, pro, onChange }: { legend: string; chosen: EventType[]; pro: boolean; onChange(chosen: EventType[]): void }) {
  const toggle = (value: EventType, on: boolean) => onChange(on ? [...chosen, value] : chosen.filter((v) => v !== value));
  return (
    <fieldset>
      <legend>{legend}</legend>
      {EVENT_TYPES.map((type) => (
        <label key={type.value} class="check">
          <input type="checkbox" checked={chosen.includes(type.value)} disabled={type.pro && !pro} onChange={(e) => toggle(type.value, e.currentTarget.checked)} />
          {type.label}
          {type.pro && <span class="tag">Pro{pro ? '' : ' only'}</span>}
        </label>
      ))}
    </fieldset>
  );
}
