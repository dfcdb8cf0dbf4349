import { gql } from '../graphql';
import { LOG_OUT } from '../operations';
import { navigate } from '../router';
import { useSession } from '../session';

const LINKS = [
  ['#/bills', 'Bills'],
  ['#/imminent', 'Imminent'],
  ['#/watchlists', 'Watchlists'],
  ['#/webhooks', 'Webhooks'],
  ['#/outbox', 'Outbox'],
  ['#/account', 'Account'],
] as const;

export function Nav({ current }: { current: string }) {
  const { me, setMe } = useSession();
  const logOut = async () => {
    try {
      await gql(LOG_OUT);
    } finally {
      setMe(null);
      navigate('#/');
    }
  };
  return (
    <header class="topbar">
      <a class="brand" href="#/">
        Bill Progress
      </a>
      <nav aria-label="Main">
        <ul>
          {LINKS.map(([href, label]) => (
            <li key={href}>
              <a href={href} aria-current={current === href.slice(2) ? 'page' : undefined}>
                {label}
              </a>
            </li>
          ))}
          {me ? (
            <li>
              <button type="button" class="link" onClick={logOut}>
                Log out
              </button>
            </li>
          ) : (
            <>
              <li>
                <a href="#/login">Log in</a>
              </li>
              <li>
                <a href="#/signup">Sign up</a>
              </li>
            </>
          )}
        </ul>
      </nav>
    </header>
  );
}
