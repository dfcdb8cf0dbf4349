/**
 * The account's address and whether alerts can reach it (issue 33), with what the user can do
 * about it: resend the verification link, or send a test email once it is verified. Shown on a
 * watchlist's notification settings and on the Outbox page, so both say the same thing.
 */
import { useState } from 'preact/hooks';
import type { EmailStatus } from '../generated/schema';
import { errorMessage, gql } from '../graphql';
import { RESEND_VERIFICATION, SEND_TEST_EMAIL } from '../operations';
import { ErrorMessage, Notice } from './Status';

const STATUS_WORDS: Record<EmailStatus, string> = {
  VERIFIED: 'Verified',
  UNVERIFIED: 'Not verified',
  SUPPRESSED: 'Refused by the mail server',
};

const STATUS_HINT: Record<EmailStatus, string> = {
  VERIFIED: 'Alerts are emailed here as each watchlist’s settings say.',
  UNVERIFIED: 'Nothing but the verification email is sent until you open the link in it.',
  SUPPRESSED: 'The mail server refused this address for good, so nothing more is sent to it until you open a new verification link.',
};

/** `onSent` is told after a test email was queued (the Outbox page reloads its list, and shows no link to itself: `onOutbox`). */
export function EmailStatusLine({ email, status, onSent, onOutbox = false }: { email: string; status: EmailStatus; onSent?: () => void; onOutbox?: boolean }) {
  const [error, setError] = useState<string | null>(null);
  const [notice, setNotice] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);

  const act = async (action: () => Promise<string>) => {
    setError(null);
    setNotice(null);
    setBusy(true);
    try {
      setNotice(await action());
    } catch (e) {
      setError(errorMessage(e));
    } finally {
      setBusy(false);
    }
  };
  const resend = () => act(async () => (await gql(RESEND_VERIFICATION), `A new verification link is on its way to ${email}.`));
  const test = () =>
    act(async () => {
      const { sendTestEmail } = await gql<{ sendTestEmail: { to: string } }>(SEND_TEST_EMAIL);
      onSent?.();
      return `A test email is on its way to ${sendTestEmail.to}: it shows in the Outbox when the service has no mail server.`;
    });

  return (
    <div class="email-status">
      <p>
        Emails go to <strong>{email}</strong> <span class={`status ${status === 'VERIFIED' ? 'on' : 'off'}`}>{STATUS_WORDS[status]}</span>
      </p>
      <p class="hint">{STATUS_HINT[status]}</p>
      <div class="actions">
        {status === 'VERIFIED' ? (
          <button type="button" class="secondary" disabled={busy} onClick={test}>
            Send me a test email
          </button>
        ) : (
          <button type="button" class="secondary" disabled={busy} onClick={resend}>
            Resend verification email
          </button>
        )}
        {!onOutbox && <a href="#/outbox">Outbox</a>}
      </div>
      <ErrorMessage error={error} />
      {notice && <Notice>{notice}</Notice>}
    </div>
  );
}
