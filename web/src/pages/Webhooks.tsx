/**
 * Webhooks wait for the events issue's GraphQL API (register, secret, test event, deliveries,
 * rotation, re-enabling): the dashboard uses only the public schema, and it has none yet.
 */
export function Webhooks() {
  return (
    <section>
      <h1>Webhooks</h1>
      <p class="callout">
        Webhooks (signed event deliveries to your own URL, for Pilot and above) are coming: this page will let you register an endpoint, see its secret once, send a test event, follow
        deliveries and rotate the secret.
      </p>
    </section>
  );
}
