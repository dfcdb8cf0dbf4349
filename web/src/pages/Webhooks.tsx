import { useEffect, useState } from 'preact/hooks';
import { ShownOnce } from '../components/ShownOnce';
import { ErrorMessage, Loading } from '../components/Status';
import { WebhookEndpointCard } from '../components/WebhookEndpointCard';
import { errorMessage, gql } from '../graphql';
import type { EventType } from '../generated/schema';
import { useSession } from '../session';
import { ENDPOINT_FIELDS, EVENT_TYPES, type NewSecret, type WebhookEndpoint } from '../webhooks';

/** The user's webhook endpoints and a form to register one (Pilot and above, like the API). */
export function Webhooks() {
  const { me } = useSession();
  const [endpoints, setEndpoints] = useState<WebhookEndpoint[] | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [secret, setSecret] = useState<NewSecret | null>(null);

  const load = () =>
    gql<{ webhooks: WebhookEndpoint[] }>(`{ webhooks { ${ENDPOINT_FIELDS} } }`)
      .then((data) => setEndpoints(data.webhooks))
      .catch((e) => setError(errorMessage(e)));
  useEffect(() => {
    if (me && me.tier !== 'FREE') void load();
  }, [me]);

  if (!me) return null;
  if (me.tier === 'FREE') {
    return (
      <section>
        <h1>Webhooks</h1>
        <p class="callout">
          Webhooks (signed POSTs to your own URL when a bill moves or its prediction changes) are for the Pilot tier or above, like the API. Ask the service’s operator to upgrade your account.
        </p>
      </section>
    );
  }

  const replaced = (endpoint: WebhookEndpoint) => setEndpoints((list) => list && list.map((e) => (e.id === endpoint.id ? endpoint : e)));
  const removed = (id: number) => {
    setEndpoints((list) => list && list.filter((e) => e.id !== id));
    if (secret?.endpointId === id) setSecret(null);
  };

  return (
    <section>
      <h1>Webhooks</h1>
      <p>
        A webhook receives the events of the bills on your watchlists (or of every bill) as signed POSTs to your URL, following{' '}
        <a href="https://www.standardwebhooks.com/">Standard Webhooks</a>: verify each with the endpoint’s secret (see <a href="/docs">the API reference</a>). A failed delivery is tried
        again 9 times over about a day; an endpoint whose every attempt fails for 3 days is disabled (enable it here once it is fixed).
      </p>
      <ErrorMessage error={error} />
      {secret && (
        <ShownOnce key={secret.secret} title={secret.rotated ? 'The new signing secret.' : 'The endpoint’s signing secret.'} value={secret.secret} testId="webhook-secret">
          {secret.rotated && <p>The previous secret also signs deliveries for the next 24 hours (two signatures), so you can switch over.</p>}
        </ShownOnce>
      )}
      <h2>Your endpoints</h2>
      {!endpoints && !error && <Loading />}
      {endpoints && !endpoints.length && <p>No endpoints yet.</p>}
      {endpoints?.map((endpoint) => (
        <WebhookEndpointCard key={endpoint.id} endpoint={endpoint} onChange={replaced} onDelete={removed} onSecret={setSecret} />
      ))}
      <RegisterWebhook
        pro={me.tier === 'PRO'}
        onCreated={(endpoint, newSecret) => {
          setEndpoints((list) => [...(list ?? []), endpoint]);
          setSecret({ endpointId: endpoint.id, secret: newSecret, rotated: false });
        }}
      />
    </section>
  );
}

function RegisterWebhook({ pro, onCreated }: { pro: boolean; onCreated(endpoint: WebhookEndpoint, secret: string): void }) {
  const [url, setUrl] = useState('');
  const [description, setDescription] = useState('');
  const [events, setEvents] = useState<EventType[]>(['BILL_STAGE_CHANGED']);
  const [allBills, setAllBills] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);

  const toggle = (value: EventType, on: boolean) => setEvents((list) => (on ? [...list, value] : list.filter((v) => v !== value)));
  const submit = async (event: Event) => {
    event.preventDefault();
    setError(null);
    if (!events.length) return setError('Choose at least one event type.');
    setBusy(true);
    try {
      const input = { url: url.trim(), events, allBills, description: description.trim() || null };
      const { createWebhook } = await gql<{ createWebhook: { secret: string; endpoint: WebhookEndpoint } }>(
        `mutation($input: CreateWebhookInput!) { createWebhook(input: $input) { secret endpoint { ${ENDPOINT_FIELDS} } } }`,
        { input },
      );
      onCreated(createWebhook.endpoint, createWebhook.secret);
      setUrl('');
      setDescription('');
    } catch (e) {
      setError(errorMessage(e));
    } finally {
      setBusy(false);
    }
  };

  return (
    <>
      <h2>Register an endpoint</h2>
      <form onSubmit={submit} class="narrow">
        <label for="webhook-url">Endpoint URL</label>
        <input id="webhook-url" type="url" required maxLength={2000} placeholder="https://example.com/bill-progress" value={url} onInput={(e) => setUrl(e.currentTarget.value)} />
        <p class="hint">http or https; addresses of private networks and of the server itself are refused.</p>
        <label for="webhook-description">Description (optional)</label>
        <input id="webhook-description" maxLength={200} value={description} onInput={(e) => setDescription(e.currentTarget.value)} />
        <fieldset>
          <legend>Event types</legend>
          {EVENT_TYPES.map((type) => (
            <label key={type.value} class="check">
              <input type="checkbox" checked={events.includes(type.value)} disabled={type.pro && !pro} onChange={(e) => toggle(type.value, e.currentTarget.checked)} />
              {type.label}
              {type.pro && <span class="tag">Pro{pro ? '' : ' only'}</span>}
            </label>
          ))}
        </fieldset>
        <label class="check">
          <input type="checkbox" checked={allBills} onChange={(e) => setAllBills(e.currentTarget.checked)} />
          Every bill, not only the bills on my watchlists
        </label>
        <ErrorMessage error={error} />
        <button type="submit" disabled={busy}>
          Register webhook
        </button>
      </form>
    </>
  );
}
