import { useEffect, useState } from 'preact/hooks';
import { ShownOnce } from '../components/ShownOnce';
import { ErrorMessage, Loading, Notice } from '../components/Status';
import { dateTime } from '../format';
import { errorMessage, gql } from '../graphql';
import { ACCOUNT, CHANGE_PASSWORD, CREATE_API_KEY, REVOKE_API_KEY } from '../operations';
import { tierName, useSession } from '../session';
import { ACTIONS, Table } from '../components/Table';
import type * as Schema from '../generated/schema';

type Usage = Schema.Usage;
type ApiKey = Pick<Schema.ApiKey, 'prefix' | 'name' | 'createdAt' | 'lastUsedAt' | 'revokedAt'>;

const KIND_LABEL: Record<string, string> = { calls: 'API calls', batches: 'Batch requests', predictions: 'Predictions' };
const UNLIMITED = 1_000_000;

export function Account() {
  const { me } = useSession();
  const [usage, setUsage] = useState<Usage[] | null>(null);
  const [keys, setKeys] = useState<ApiKey[]>([]);
  const [error, setError] = useState<string | null>(null);
  const [created, setCreated] = useState<string | null>(null);
  const [name, setName] = useState('');

  const load = () =>
    gql<{ usage: Usage[]; apiKeys: ApiKey[] }>(ACCOUNT)
      .then((data) => {
        setUsage(data.usage);
        setKeys(data.apiKeys);
      })
      .catch((e) => setError(errorMessage(e)));
  useEffect(() => void load(), []);

  if (!me) return null;
  const canHaveKeys = me.tier !== 'FREE';

  const create = async (event: Event) => {
    event.preventDefault();
    setError(null);
    try {
      const data = await gql<{ createApiKey: { apiKey: string } }>(CREATE_API_KEY, { name: name.trim() || null });
      setCreated(data.createApiKey.apiKey);
      setName('');
      await load();
    } catch (e) {
      setError(errorMessage(e));
    }
  };
  const revoke = async (prefix: string) => {
    if (!confirm(`Revoke the key ${prefix}? Programs using it stop working at once.`)) return;
    setError(null);
    try {
      await gql(REVOKE_API_KEY, { prefix });
      await load();
    } catch (e) {
      setError(errorMessage(e));
    }
  };

  return (
    <section>
      <h1>Account</h1>
      <p>
        {me.email} · <strong>{tierName(me.tier)}</strong> tier
      </p>
      {me.tier !== 'PRO' && (
        <p class="muted">
          {me.tier === 'FREE' ? 'Pilot gives 100 predictions a day, watchlists with alerts, and API keys (1,000 API calls a day).' : 'Pro gives unlimited predictions, trend and spike alerts, and alert history.'}{' '}
          There is no payment here: to upgrade, ask the service’s operator, who changes tiers with <code>npm run admin -- set-tier</code>.
        </p>
      )}
      <ErrorMessage error={error} />

      <h2>Today’s usage</h2>
      {!usage && <Loading />}
      {usage && (
        <Table columns={['Limit', 'Used today', 'Daily limit', 'Resets']}>
          {usage.map((u) => (
            <tr key={u.kind}>
              <th scope="row">{KIND_LABEL[u.kind] ?? u.kind}</th>
              <td>{u.used.toLocaleString('en-GB')}</td>
              <td>{u.limit >= UNLIMITED ? 'unlimited' : u.limit.toLocaleString('en-GB')}</td>
              <td>{dateTime(u.resetsAt)}</td>
            </tr>
          ))}
        </Table>
      )}
      <p class="muted">The website counts a bill’s predictions and chart as one prediction, once a day per bill; it uses no API calls.</p>

      <h2>API keys</h2>
      {canHaveKeys ? (
        <form class="inline" onSubmit={create}>
          <label for="key-name">Key name (optional)</label>
          <input id="key-name" maxLength={100} value={name} onInput={(e) => setName(e.currentTarget.value)} />
          <button type="submit">Create API key</button>
        </form>
      ) : (
        <p class="callout">API keys are for the Pilot tier or above: the Free tier has no API access. Ask the service’s operator to upgrade your account.</p>
      )}
      {created && <ShownOnce key={created} title="Your new key." value={created} testId="new-api-key" />}
      {keys.length > 0 ? (
        <Table caption="Your keys" columns={['Name', 'Prefix', 'Created', 'Last used', ACTIONS]}>
          {keys.map((k) => (
            <tr key={k.prefix}>
              <td>{k.name ?? '—'}</td>
              <td>
                <code>{k.prefix}</code>
              </td>
              <td>{dateTime(k.createdAt)}</td>
              <td>{dateTime(k.lastUsedAt)}</td>
              <td>
                {k.revokedAt ? (
                  <span class="muted">revoked {dateTime(k.revokedAt)}</span>
                ) : (
                  <button type="button" class="danger" aria-label={`Revoke ${k.name ?? k.prefix}`} onClick={() => revoke(k.prefix)}>
                    Revoke
                  </button>
                )}
              </td>
            </tr>
          ))}
        </Table>
      ) : (
        canHaveKeys && <p>No keys yet.</p>
      )}
      <ChangePassword />
    </section>
  );
}

function ChangePassword() {
  const [current, setCurrent] = useState('');
  const [next, setNext] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [done, setDone] = useState(false);
  const submit = async (event: Event) => {
    event.preventDefault();
    setError(null);
    setDone(false);
    try {
      await gql(CHANGE_PASSWORD, { c: current, n: next });
      setCurrent('');
      setNext('');
      setDone(true);
    } catch (e) {
      setError(errorMessage(e));
    }
  };
  return (
    <>
      <h2>Change password</h2>
      <form onSubmit={submit} class="narrow">
        <label for="current-password">Current password</label>
        <input id="current-password" type="password" autocomplete="current-password" required value={current} onInput={(e) => setCurrent(e.currentTarget.value)} />
        <label for="new-password">New password</label>
        <input id="new-password" type="password" autocomplete="new-password" minLength={10} required value={next} onInput={(e) => setNext(e.currentTarget.value)} />
        <ErrorMessage error={error} />
        {done && <Notice>Password changed. Every other browser signed in to this account has been logged out.</Notice>}
        <button type="submit">Change password</button>
      </form>
    </>
  );
}
