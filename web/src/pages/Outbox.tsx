/**
 * The local mailbox (issue 33): the newest 100 emails the service delivered to this account
 * without an SMTP server, so a newcomer sees what would have been sent. Each shows its plain-text
 * part as text (never as HTML, so nothing in an email can run or load anything here). Over SMTP
 * the list is empty, and the page says where mail goes instead. Above the list, the next digest as it
 * would be sent now.
 */
import { useEffect, useState } from 'preact/hooks';
import { EmailStatusLine } from '../components/EmailStatusLine';
import { NextDigest, type NextDigestPreview } from '../components/NextDigest';
import { ErrorMessage, Loading } from '../components/Status';
import { dateTime } from '../format';
import type * as Schema from '../generated/schema';
import { errorMessage, gql } from '../graphql';
import { EMAIL_STATUS, OUTBOX } from '../operations';

type Message = Pick<Schema.OutboxMessage, 'id' | 'to' | 'subject' | 'text' | 'messageId' | 'eventId' | 'deliveredAt'>;
type Address = Pick<Schema.Account, 'email' | 'emailStatus'>;

export function Outbox() {
  const [messages, setMessages] = useState<Message[] | null>(null);
  const [address, setAddress] = useState<Address | null>(null);
  const [digest, setDigest] = useState<NextDigestPreview | null>(null);
  const [error, setError] = useState<string | null>(null);

  const load = () =>
    Promise.all([gql<{ me: { outbox: Message[]; nextDigest: NextDigestPreview | null } }>(OUTBOX), gql<{ me: Address }>(EMAIL_STATUS)]).then(
      ([outbox, status]) => {
        setMessages(outbox.me.outbox);
        setDigest(outbox.me.nextDigest);
        setAddress(status.me);
      },
      (e) => setError(errorMessage(e)),
    );
  useEffect(() => void load(), []);

  return (
    <section>
      <h1>Outbox</h1>
      <p class="muted">
        The newest 100 emails sent to you, newest first, when the service runs without a mail server (it keeps them here instead). With a mail server they go to your inbox and this list stays empty.
      </p>
      {address && <EmailStatusLine email={address.email} status={address.emailStatus} onOutbox onSent={() => setTimeout(() => void load(), 1500)} />}
      {messages && <NextDigest initial={digest} level={2} />}
      <h2>Sent</h2>
      <ErrorMessage error={error} />
      {!messages && !error && <Loading />}
      {messages && !messages.length && <p>No emails yet.</p>}
      {messages && messages.length > 0 && (
        <>
          <div class="actions">
            <button type="button" class="secondary" onClick={() => void load()}>
              Refresh
            </button>
          </div>
          <ul class="cards" aria-label="Emails">
            {messages.map((m) => (
              <li key={m.id}>
                <details>
                  <summary>
                    <strong>{m.subject}</strong>
                    <span class="muted">
                      {' '}
                      · to {m.to} · {dateTime(m.deliveredAt)} · <span class="status delivered">delivered</span>
                    </span>
                  </summary>
                  <pre class="mail-body">{m.text}</pre>
                  <p class="hint">
                    Message-ID <code>{m.messageId}</code> · event <code>{m.eventId}</code>
                  </p>
                </details>
              </li>
            ))}
          </ul>
        </>
      )}
    </section>
  );
}
