/**
 * "Next digest" (issue 33): the account's next digest email as it would be sent now, from GraphQL
 * `me { nextDigest }`: when it goes (UK time), its slot, which watchlists it covers, its subject
 * and its plain-text part shown as text (the HTML part is never fetched or rendered here, so
 * nothing in a mail can run or load anything on the page); "Nothing to send yet" when no daily or
 * weekly watchlist has a change. Shown under a watchlist's email settings and on the Outbox page.
 */
import { useEffect, useState } from 'preact/hooks';
import { ukDateTime } from '../format';
import type * as Schema from '../generated/schema';
import { errorMessage, gql } from '../graphql';
import { NEXT_DIGEST } from '../operations';
import { ErrorMessage } from './Status';

export type NextDigestPreview = Pick<Schema.DigestPreview, 'at' | 'slot' | 'watchlistIds' | 'subject' | 'text'>;

/**
 * `initial`: the preview the page's own request read (so opening the page costs no request more).
 * `watchlistId`: the page's watchlist, to say whether the digest covers it. `reload`: a number that
 * changes when the preview should be read again (a setting saved). `level`: the heading's, to fit the page's outline.
 */
export function NextDigest({ initial, watchlistId, reload = 0, level = 3 }: { initial: NextDigestPreview | null; watchlistId?: number; reload?: number; level?: 2 | 3 }) {
  const Heading = level === 2 ? 'h2' : 'h3';
  const [preview, setPreview] = useState<NextDigestPreview | null>(initial);
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);

  const load = async () => {
    setError(null);
    setBusy(true);
    try {
      setPreview((await gql<{ me: { nextDigest: NextDigestPreview | null } }>(NEXT_DIGEST)).me.nextDigest);
    } catch (e) {
      setError(errorMessage(e));
    } finally {
      setBusy(false);
    }
  };
  useEffect(() => setPreview(initial), [initial]);
  useEffect(() => void (reload > 0 && load()), [reload]);

  return (
    <section class="next-digest" aria-labelledby="next-digest-heading">
      <Heading id="next-digest-heading">Next digest</Heading>
      <ErrorMessage error={error} />
      {preview === null && <p>Nothing to send yet: no daily or weekly watchlist has a change since its last digest, and no digest goes without one.</p>}
      {preview && (
        <>
          <p>
            Goes <strong>{ukDateTime(preview.at)}</strong> <span class="muted">· {preview.slot}</span>
          </p>
          <p class="hint">{coverage(preview.watchlistIds, watchlistId)} As it would be if sent now: more may change before then.</p>
          <p>
            Subject: <strong>{preview.subject}</strong>
          </p>
          <pre class="mail-body" aria-label="The digest’s text">
            {preview.text}
          </pre>
        </>
      )}
      <div class="actions">
        <button type="button" class="secondary" disabled={busy} onClick={() => void load()}>
          Refresh preview
        </button>
      </div>
    </section>
  );
}

function coverage(ids: number[], watchlistId: number | undefined): string {
  const count = `${ids.length} ${ids.length === 1 ? 'watchlist' : 'watchlists'}`;
  if (watchlistId === undefined) return `One email for ${count} at this time.`;
  return ids.includes(watchlistId) ? `One email for ${count} at this time, this one included.` : `One email for ${count} at this time; this watchlist’s digest comes later, or has nothing yet.`;
}
