import { useSession } from '../session';

/** What a visitor sees first: what the service does, and the way in. */
export function Home() {
  const { me } = useSession();
  return (
    <section class="narrow">
      <h1>Where will a UK bill go next?</h1>
      <p>
        Bill Progress forecasts how bills in the UK Parliament will progress: the chance of Royal Assent, of the next stage within 30 days, and the risks on the way. Every forecast is a
        nowcast that uses only what was known on its date.
      </p>
      {me ? (
        <p>
          <a class="button" href="#/bills">
            Search bills
          </a>
        </p>
      ) : (
        <p class="actions">
          <a class="button" href="#/signup">
            Sign up
          </a>
          <a class="button secondary" href="#/login">
            Log in
          </a>
        </p>
      )}
      <p class="muted">
        Developers: the API is documented at <a href="/docs">/docs</a>, and the GraphQL endpoint is <a href="/graphql">/graphql</a>.
      </p>
    </section>
  );
}
