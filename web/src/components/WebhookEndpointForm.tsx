import { useState } from 'preact/hooks';
import type { EventType, WebhookFormat } from '../generated/schema';
import { errorMessage } from '../graphql';
import { WEBHOOK_FORMATS } from '../webhooks';
import { EventTypeChoices } from './EventTypeChoices';
import { ErrorMessage } from './Status';

/** What a user chooses for an endpoint, whether registering it or editing it. */
export interface EndpointChoice {
  url: string;
  /** chosen at registration; an edit sends it unchanged (the API refuses another: that is a new endpoint) */
  format: WebhookFormat;
  description: string | null;
  events: EventType[];
  allBills: boolean;
}

interface Props {
  /** the endpoint being edited; none to register a new one */
  initial?: EndpointChoice;
  /** tells apart the fields of several forms on one page */
  idPrefix: string;
  submitLabel: string;
  pro: boolean;
  /** saves the choice; a thrown error is shown in the form, which keeps what was typed */
  onSubmit(choice: EndpointChoice): Promise<void>;
  onCancel?(): void;
}

/** The endpoint's URL, description, event types and scope: one form for registering and for editing. */
export function WebhookEndpointForm({ initial, idPrefix, submitLabel, pro, onSubmit, onCancel }: Props) {
  const [url, setUrl] = useState(initial?.url ?? '');
  const [format, setFormat] = useState<WebhookFormat>(initial?.format ?? 'STANDARD');
  const [description, setDescription] = useState(initial?.description ?? '');
  const [events, setEvents] = useState<EventType[]>(initial?.events ?? ['BILL_STAGE_CHANGED']);
  const [allBills, setAllBills] = useState(initial?.allBills ?? false);
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);

  const submit = async (event: Event) => {
    event.preventDefault();
    setError(null);
    if (!events.length) return setError('Choose at least one event type.');
    setBusy(true);
    try {
      await onSubmit({ url: url.trim(), format, description: description.trim() || null, events, allBills });
      if (!initial) {
        setUrl('');
        setDescription('');
      }
    } catch (e) {
      setError(errorMessage(e));
    } finally {
      setBusy(false);
    }
  };

  return (
    <form onSubmit={submit} class="narrow">
      <label for={`${idPrefix}-url`}>Endpoint URL</label>
      <input id={`${idPrefix}-url`} type="url" required maxLength={2000} placeholder="https://example.com/bill-progress" value={url} onInput={(e) => setUrl(e.currentTarget.value)} />
      <p class="hint">http or https; addresses of private networks and of the server itself are refused.</p>
      <label for={`${idPrefix}-format`}>Format</label>
      <select id={`${idPrefix}-format`} value={format} disabled={!!initial} onChange={(e) => setFormat(e.currentTarget.value as WebhookFormat)}>
        {WEBHOOK_FORMATS.map((f) => (
          <option key={f.value} value={f.value}>
            {f.label}
          </option>
        ))}
      </select>
      <p class="hint">
        {format === 'STANDARD'
          ? 'Signed JSON (Standard Webhooks), for a program of your own.'
          : 'A chat message, unsigned (the chat service checks nothing): use the incoming-webhook URL the service gave you. It must be https, on a host the operator allows (by default Slack’s and Microsoft’s webhook hosts).'}
        {initial && ' The format stays as registered: register a new endpoint for another.'}
      </p>
      <label for={`${idPrefix}-description`}>Description (optional)</label>
      <input id={`${idPrefix}-description`} maxLength={200} value={description} onInput={(e) => setDescription(e.currentTarget.value)} />
      <EventTypeChoices legend="Event types" chosen={events} pro={pro} onChange={setEvents} />
      <label class="check">
        <input type="checkbox" checked={allBills} onChange={(e) => setAllBills(e.currentTarget.checked)} />
        Every bill, not only the bills on my watchlists
      </label>
      <ErrorMessage error={error} />
      <div class="actions">
        <button type="submit" disabled={busy}>
          {submitLabel}
        </button>
        {onCancel && (
          <button type="button" class="secondary" onClick={onCancel}>
            Cancel
          </button>
        )}
      </div>
    </form>
  );
}
