import { render } from 'preact';
import { useEffect, useState } from 'preact/hooks';
import { Nav } from './components/Nav';
import { ErrorMessage, Loading } from './components/Status';
import { errorMessage, gql, onSignedOut } from './graphql';
import { SESSION } from './operations';
import { Account } from './pages/Account';
import { BillPage } from './pages/BillPage';
import { Bills } from './pages/Bills';
import { Home } from './pages/Home';
import { Imminent } from './pages/Imminent';
import { Outbox } from './pages/Outbox';
import { SignIn } from './pages/SignIn';
import { WatchlistPage } from './pages/WatchlistPage';
import { Watchlists } from './pages/Watchlists';
import { Webhooks } from './pages/Webhooks';
import { useRoute } from './router';
import { type Me, SessionContext } from './session';
import { DataFreshnessNote, type Freshness, StaleDataWarning } from './components/DataFreshness';
import './styles.css';

const TITLES: Record<string, string> = { bills: 'Bills', imminent: 'Imminent', watchlists: 'Watchlists', webhooks: 'Webhooks', outbox: 'Outbox', account: 'Account', login: 'Log in', signup: 'Sign up' };

function Page({ path, query }: { path: string[]; query: URLSearchParams }) {
  const [section, id] = path;
  switch (section) {
    case 'bills':
      return id ? <BillPage id={Number(id)} /> : <Bills query={query.get('q') ?? ''} session={query.get('session') ?? ''} />;
    case 'imminent':
      return <Imminent />;
    case 'watchlists':
      return id ? <WatchlistPage id={Number(id)} /> : <Watchlists />;
    case 'webhooks':
      return <Webhooks />;
    case 'outbox':
      return <Outbox />;
    case 'account':
      return <Account />;
    default:
      return <p role="alert">There is no page here. <a href="#/">Home</a></p>;
  }
}

function App() {
  const { path, query } = useRoute();
  const [me, setMe] = useState<Me | null | undefined>(undefined);
  const [freshness, setFreshness] = useState<Freshness | null>(null);
  const [error, setError] = useState<string | null>(null);

  useEffect(() => onSignedOut(() => setMe(null)), []);

  const section = path[0] ?? '';
  // who is signed in, asked again on each page: a tier changed by the operator shows at once; a
  // signed-out visitor is answered null, not refused, so a first visit makes no failing request
  useEffect(() => {
    gql<{ session: { account: Me } | null; serviceStatus: { data: Freshness } }>(SESSION).then(
      (data) => {
        setMe(data.session?.account ?? null);
        setFreshness(data.serviceStatus.data);
      },
      (e) => setError(errorMessage(e)),
    );
  }, [section]);
  useEffect(() => {
    document.title = TITLES[section] ? `${TITLES[section]} · Bill Progress` : 'Bill Progress';
    // move focus to the new page's heading, so keyboard and screen-reader users start there
    requestAnimationFrame(() => {
      const heading = document.querySelector<HTMLElement>('main h1');
      heading?.setAttribute('tabindex', '-1');
      heading?.focus({ preventScroll: true });
    });
  }, [section, path[1]]);

  let content;
  if (me === undefined) content = error ? <ErrorMessage error={error} /> : <Loading />;
  else if (section === 'login' || section === 'signup') content = <SignIn mode={section} />;
  else if (!section) content = <Home />;
  else if (!me) content = <SignIn mode="login" />;
  else content = <Page path={path} query={query} />;

  return (
    <SessionContext.Provider value={{ me: me ?? null, setMe }}>
      <a class="skip" href="#main" onClick={(e) => (e.preventDefault(), document.getElementById('main')?.focus())}>
        Skip to content
      </a>
      <Nav current={section} />
      <main id="main" tabIndex={-1}>
        {freshness?.stale && <StaleDataWarning freshness={freshness} />}
        {content}
      </main>
      <footer>
        {freshness && <DataFreshnessNote freshness={freshness} />}
        Contains Parliamentary information licensed under the Open Parliament Licence v3.0. · <a href="/docs">API reference</a>
      </footer>
    </SessionContext.Provider>
  );
}

render(<App />, document.getElementById('app')!);
