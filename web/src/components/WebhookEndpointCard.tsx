import { useState } from 'preact/hooks';
import { dateTime } from '../format';
import { errorMessage, gql } from '../graphql';
import { DELETE_WEBHOOK, RECOVER_WEBHOOK_DELIVERIES, ROTATE_WEBHOOK_SECRET, TEST_WEBHOOK, UPDATE_WEBHOOK, WEBHOOK_DELIVERIES } from '../operations';
import { EVENT_TYPES, eventName, type NewSecret, type WebhookDelivery, type WebhookEndpoint, WEBHOOK_FORMATS } from '../webhooks';
import { ErrorMessage, Loading, Notice } from './Status';
import { Table } from './Table';
import { type EndpointChoice, WebhookEndpointForm } from './WebhookEndpointForm';

const LABELS = new Map(EVENT_TYPES.map((t) => [t.value, t.label]));

/** How far back "Re-send failed deliveries" looks (a delivery is given up about a day after its event, after its last retry). */
const RECOVER_WINDOWS = [
  { days: 1, label: 'the last 24 hours' },
  { days: 3, label: 'the last 3 days' },
  { days: 7, label: 'the last 7 days' },
  { days: 30, label: 'the last 30 days' },
];

interface Props {
  endpoint: WebhookEndpoint;
  /** the user may choose Pro-only event types */
  pro: boolean;
  onChange(endpoint: WebhookEndpoint): void;
  onDelete(id: number): void;
  onSecret(secret: NewSecret): void;
}

/** One endpoint: what it receives, whether it is on, its actions, and its recent deliveries. */
export function WebhookEndpointCard({ endpoint, pro, onChange, onDelete, onSecret }: Props) {
  const [error, setError] = useState<string | null>(null);
  const [notice, setNotice] = useState<string | null>(null);
  const [deliveries, setDeliveries] = useState<WebhookDelivery[] | null>(null);
  const [showDeliveries, setShowDeliveries] = useState(false);
  const [editing, setEditing] = useState(false);
  const [recoverDays, setRecoverDays] = useState(3);
  const headingId = `webhook-${endpoint.id}`;

  /** Runs one action, showing its failure in this card. */
  const act = async (action: () => Promise<void>) => {
    setError(null);
    setNotice(null);
    try {
      await action();
    } catch (e) {
      setError(errorMessage(e));
    }
  };
  const loadDeliveries = async () => {
    const data = await gql<{ webhookDeliveries: WebhookDelivery[] }>(WEBHOOK_DELIVERIES, { id: endpoint.id });
    setDeliveries(data.webhookDeliveries);
    setShowDeliveries(true);
  };
  const setActive = (active: boolean) =>
    act(async () => {
      const data = await gql<{ updateWebhook: WebhookEndpoint }>(UPDATE_WEBHOOK, { id: endpoint.id, input: { active } });
      onChange(data.updateWebhook);
      setNotice(active ? 'Enabled: deliveries resume with the next event.' : 'Disabled: no deliveries are made until you enable it.');
    });
  const sendTest = () =>
    act(async () => {
      const data = await gql<{ testWebhook: { eventId: string } }>(TEST_WEBHOOK, { id: endpoint.id });
      setNotice(`Test event ${data.testWebhook.eventId} queued.`);
      await loadDeliveries();
    });
  const rotate = () =>
    act(async () => {
      if (!confirm(`Make a new signing secret for ${endpoint.url}? The current one keeps signing for 24 hours.`)) return;
      const data = await gql<{ rotateWebhookSecret: { secret: string } }>(ROTATE_WEBHOOK_SECRET, { id: endpoint.id });
      onSecret({ endpointId: endpoint.id, secret: data.rotateWebhookSecret.secret, rotated: true });
    });
  const save = async (input: EndpointChoice) => {
    const data = await gql<{ updateWebhook: WebhookEndpoint }>(UPDATE_WEBHOOK, { id: endpoint.id, input });
    onChange(data.updateWebhook);
    setEditing(false);
    setNotice('Saved: the next events are sent with these settings.');
  };
  const recover = () =>
    act(async () => {
      const since = new Date(Date.now() - recoverDays * 86_400_000).toISOString();
      const data = await gql<{ recoverWebhookDeliveries: number }>(RECOVER_WEBHOOK_DELIVERIES, { id: endpoint.id, since });
      const queued = data.recoverWebhookDeliveries;
      setNotice(queued ? `${queued} failed ${queued === 1 ? 'delivery' : 'deliveries'} queued again, from the first retry.` : 'No failed deliveries in that period.');
      if (queued) await loadDeliveries();
    });
  const remove = () =>
    act(async () => {
      if (!confirm(`Delete the webhook ${endpoint.url}? Its pending deliveries are dropped.`)) return;
      await gql(DELETE_WEBHOOK, { id: endpoint.id });
      onDelete(endpoint.id);
    });

  return (
    <article class="card" aria-labelledby={headingId}>
      <h3 id={headingId} class="url">
        {endpoint.url}
      </h3>
      {endpoint.description && <p>{endpoint.description}</p>}
      <p>
        {endpoint.active ? <span class="status on">Active</span> : <span class="status off">Disabled</span>}{' '}
        {endpoint.disabledReason && <span class="error">{endpoint.disabledReason}</span>}
        {endpoint.inactiveReason && <span class="error">{endpoint.inactiveReason}</span>}
        <span class="muted">
          {' '}
          · {WEBHOOK_FORMATS.find((f) => f.value === endpoint.format)?.label ?? endpoint.format} · {endpoint.allBills ? 'every bill' : 'the bills on your watchlists'} · registered {dateTime(endpoint.createdAt)}
        </span>
      </p>
      {editing && (
        <WebhookEndpointForm
          initial={{ url: endpoint.url, format: endpoint.format, description: endpoint.description ?? null, events: endpoint.events, allBills: endpoint.allBills }}
          idPrefix={`webhook-${endpoint.id}-edit`}
          submitLabel="Save changes"
          pro={pro}
          onSubmit={save}
          onCancel={() => setEditing(false)}
        />
      )}
      <ul class="events">
        {endpoint.events.map((type) => (
          <li key={type}>
            {LABELS.get(type) ?? type} <code class="muted">{eventName(type)}</code>
          </li>
        ))}
      </ul>
      <div class="actions">
        <button type="button" class="secondary" onClick={sendTest} disabled={!endpoint.active}>
          Send test event
        </button>
        <button type="button" class="secondary" onClick={() => act(loadDeliveries)}>
          {showDeliveries ? 'Refresh deliveries' : 'Show deliveries'}
        </button>
        <button type="button" class="secondary" onClick={() => setEditing(!editing)} aria-expanded={editing}>
          Edit
        </button>
        <button type="button" class="secondary" onClick={rotate}>
          Rotate secret
        </button>
        <button type="button" class="secondary" onClick={() => setActive(!endpoint.active)}>
          {endpoint.active ? 'Disable' : 'Enable'}
        </button>
        <button type="button" class="danger" onClick={remove}>
          Delete
        </button>
      </div>
      <div class="actions">
        <label class="inline">
          Re-send the failed deliveries of events in{' '}
          <select value={recoverDays} onChange={(e) => setRecoverDays(Number(e.currentTarget.value))}>
            {RECOVER_WINDOWS.map((w) => (
              <option key={w.days} value={w.days}>
                {w.label}
              </option>
            ))}
          </select>
        </label>
        <button type="button" class="secondary" onClick={recover}>
          Re-send failed deliveries
        </button>
      </div>
      <ErrorMessage error={error} />
      {notice && <Notice>{notice}</Notice>}
      {showDeliveries && !deliveries && <Loading />}
      {showDeliveries && deliveries && <Deliveries deliveries={deliveries} />}
    </article>
  );
}

function Deliveries({ deliveries }: { deliveries: WebhookDelivery[] }) {
  if (!deliveries.length) return <p class="muted">No deliveries yet.</p>;
  return (
    <Table caption="Recent deliveries, newest first" columns={['Event', 'Status', 'HTTP status', 'Attempts', 'Last attempt', 'Next attempt']}>
      {deliveries.map((d) => (
        <tr key={d.eventId}>
          <td>
            {d.eventType}
            <br />
            <code class="muted">{d.eventId}</code>
          </td>
          <td>
            <span class={`status ${d.status}`}>{d.status}</span>
            {d.error && <div class="muted">{d.error}</div>}
          </td>
          <td>{d.statusCode ?? '—'}</td>
          <td>
            {d.attempt}
            {d.attempts.length > 1 && <EarlierAttempts attempts={d.attempts.slice(1)} />}
          </td>
          <td>
            {dateTime(d.attemptedAt)}
            {d.durationMs !== null && <span class="muted"> ({d.durationMs} ms)</span>}
          </td>
          <td>{dateTime(d.nextAttemptAt)}</td>
        </tr>
      ))}
    </Table>
  );
}

/** The attempts before the last, newest first: a receiver's earlier failures stay visible after a retry succeeds. */
function EarlierAttempts({ attempts }: { attempts: WebhookDelivery['attempts'] }) {
  return (
    <details>
      <summary class="muted">earlier</summary>
      <ul class="muted">
        {attempts.map((a) => (
          <li key={`${a.attempt} ${a.attemptedAt}`}>
            #{a.attempt} {dateTime(a.attemptedAt)}: {a.error ?? a.statusCode ?? '—'} ({a.durationMs} ms)
          </li>
        ))}
      </ul>
    </details>
  );
}
