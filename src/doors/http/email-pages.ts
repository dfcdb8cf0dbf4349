/**
 * The pages an email's links open, without a log-in (the link's token is the credential):
 * `GET /account/verify-email/{token}` verifies the address the link was sent to. A used or expired
 * link answers 410 with a page saying so; an unknown one 404. Small HTML pages, no script, never
 * cached (the answer changes once the link is used), and the token never reaches a log or a referrer.
 */
import express, { type Router } from 'express';
import type { AccountEmailService } from '../../services/account-email.service';
import type { Logger } from '../../logger';

const escapeHtml = (text: string) => text.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!);

/** A whole page: a heading and a paragraph. */
export function page(title: string, message: string): string {
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><meta name="referrer" content="no-referrer"><title>${escapeHtml(title)} · Bill Progress</title>
<style>body{font-family:system-ui,sans-serif;max-width:36rem;margin:4rem auto;padding:0 1rem;line-height:1.5}</style></head>
<body><h1>${escapeHtml(title)}</h1><p>${escapeHtml(message)}</p><p><a href="/">Open the dashboard</a></p></body></html>
`;
}

export function sendPage(res: express.Response, status: number, title: string, message: string): void {
  res.status(status).set({ 'Content-Type': 'text/html; charset=utf-8', 'Cache-Control': 'no-store', 'Referrer-Policy': 'no-referrer', 'X-Content-Type-Options': 'nosniff' }).send(page(title, message));
}

export function emailPages(accountEmail: AccountEmailService, logger: Logger): Router {
  const router = express.Router();
  router.get('/account/verify-email/:token', async (req, res) => {
    try {
      const outcome = await accountEmail.verify(String(req.params.token));
      if (outcome.result === 'verified') return sendPage(res, 200, 'Address verified', `${outcome.email} is verified: Bill Progress may now email it the alerts you choose.`);
      if (outcome.result === 'gone') return sendPage(res, 410, 'This link no longer works', outcome.reason);
      return sendPage(res, 404, 'Unknown link', 'This verification link is not one Bill Progress sent: check that it was copied whole.');
    } catch (error) {
      logger.error({ err: error }, 'email verification failed');
      return sendPage(res, 500, 'Something went wrong', 'The address could not be verified just now: open the link again in a moment.');
    }
  });
  return router;
}
