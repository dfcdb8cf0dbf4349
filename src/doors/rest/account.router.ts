/**
 * The calling account (issue 33, email): `GET /account` (who the key belongs to, its tier and
 * whether its address is verified), `GET /account/outbox` (the local mailbox's last 100 emails),
 * `GET /account/digest-preview` (the next digest email as it would be now),
 * `POST /account/verification-email` (a new verification link, rate-limited) and
 * `POST /account/test-email` (a test email to the verified address, rate-limited).
 */
import type { RouteTable } from './route-table';
import type { Gateway } from '../../gateway/pipeline';
import { heldToDocument } from './documented-operations';
import { type Handler, route } from './route';
import type { RunOperation } from './run-operation';

export function addAccountRoutes(router: RouteTable, gateway: Gateway, run: RunOperation): void {
  const handle = (handler: Handler) => route(gateway, heldToDocument(handler));

  router.get(
    '/account',
    handle(async (_req, context) => {
      const { me } = await run('GetAccount', {}, context);
      return { id: me!.id, email: me!.email, tier: me!.tier.toLowerCase(), email_status: me!.emailStatus };
    }),
  );

  router.get(
    '/account/outbox',
    handle(async (_req, context) => {
      const { me } = await run('GetOutbox', {}, context);
      return {
        messages: me!.outbox.map((m) => ({ id: m.id, to: m.to, subject: m.subject, text: m.text, message_id: m.messageId, event_id: m.eventId, delivered_at: m.deliveredAt })),
      };
    }),
  );

  router.get(
    '/account/digest-preview',
    handle(async (_req, context) => {
      const { me } = await run('GetDigestPreview', {}, context);
      const d = me!.nextDigest;
      return { next_digest: d && { at: d.at, slot: d.slot, watchlist_ids: d.watchlistIds, subject: d.subject, text: d.text, html: d.html } };
    }),
  );

  router.post(
    '/account/verification-email',
    handle(async (_req, context) => {
      await run('ResendVerificationEmail', {}, context);
      return { sent: true };
    }),
  );

  router.post(
    '/account/test-email',
    handle(async (_req, context) => {
      const { sendTestEmail } = await run('SendTestEmail', {}, context);
      return { sent: true, to: sendTestEmail.to, event_id: sendTestEmail.eventId };
    }),
  );
}
