import { useEffect, useState } from 'preact/hooks';
import { ShownOnce } from '../components/ShownOnce';
import { ErrorMessage, Loading } from '../components/Status';
import { WebhookEndpointCard } from '../components/WebhookEndpointCard';
import { type EndpointChoice, WebhookEndpointForm } from '../components/WebhookEndpointForm';
import { errorMessage, gql } from '../graphql';
import { CREATE_WEBHOOK, WEBHOOKS } from '../operations';
import { useSession } from '../session';
import { type NewSecret, type WebhookEndpoint } from '../webhooks';

/** The user's webhook endpoints and a form to register one (Pilot and above, like the API). */
export function Webhooks() {
  const { me } = useSession();
  const [endpoints, setEndpoints] = useState<WebhookEndpoint[] | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [secret, setSecret] = useState<NewSecret | null>(null);

  const load = () =>
    gql<{ webhooks: WebhookEndpoint[] }>(WEBHOOKS)
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
        <a href="https://www.standardwebhooks.com/">Standard Webhooks</a>: verify each with the endpoint’s secret:{' '}
        <a href="/docs/api-watchlists#what-a-delivery-looks-like">the API guide’s signature headers and a receiver that checks them</a>. A failed delivery is tried
        again 9 times over about a day; an endpoint whose every attempt fails for 3 days is disabled (enable it here once it is fixed).
      </p>
      <ErrorMessage error={error} />
      {secret && (
        <ShownOnce key={secret.secret} title={secret.rotated ? 'The new signing secret.' : 'The endpoint’s signing secret.'} value={secret.secret} testId="webhook-secret">
          {secret.rotated && <p>The previous secret also signs deliveries for the next 24 hours (two signatures), so you can switch over.</p>}
          {endpoints?.find((e) => e.id === secret.endpointId && e.format !== 'STANDARD') && <p>This endpoint gets chat messages, which are sent unsigned: the secret signs the standard format only.</p>}
        </ShownOnce>
      )}
      <h2>Your endpoints</h2>
      {!endpoints && !error && <Loading />}
      {endpoints && !endpoints.length && <p>No endpoints yet.</p>}
      {endpoints?.map((endpoint) => (
        <WebhookEndpointCard key={endpoint.id} endpoint={endpoint} pro={me.tier === 'PRO'} onChange={replaced} onDelete={removed} onSecret={setSecret} />
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
  const register = async (input: EndpointChoice) => {
    const { createWebhook } = await gql<{ createWebhook: { secret: string; endpoint: WebhookEndpoint } }>(CREATE_WEBHOOK, { input });
    onCreated(createWebhook.endpoint, createWebhook.secret);
  };
  return (
    <>
      <h2>Register an endpoint</h2>
      <WebhookEndpointForm idPrefix="webhook" submitLabel="Register webhook" pro={pro} onSubmit={register} />
    </>
  );
}
