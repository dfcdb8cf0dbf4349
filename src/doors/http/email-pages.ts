/**
 * The pages an email's links open, without a log-in (the link's token is the credential):
 * `GET /account/verify-email/{token}` verifies the address the link was sent to (a used or expired
 * link answers 410 with a page saying so; an unknown one 404); `POST /email/unsubscribe/{token}`
 * (RFC 8058's one-click, what mail apps send) turns that watchlist's email off, and its `GET` shows
 * a page whose button does the same: a GET changes nothing, since mail scanners open links. Small HTML pages, no script, never
 * cached (the answer changes once the link is used), and the token never reaches a log or a referrer.
 */
import express, { type Router } from 'express';
import type { AccountEmailService } from '../../services/account-email.service';
import type { WatchlistNotificationService } from '../../services/watchlist-notification.service';
import type { Logger } from '../../logger';
import { escapeHtml } from '../../common/html';


/** A whole page: a heading and a paragraph. */
export function page(title: string, message: string, form = ''): string {
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><meta name="referrer" content="no-referrer"><title>${escapeHtml(title)} · Bill Progress</title>
<style>body{font-family:system-ui,sans-serif;max-width:36rem;margin:4rem auto;padding:0 1rem;line-height:1.5}</style></head>
<body><h1>${escapeHtml(title)}</h1><p>${escapeHtml(message)}</p>${form}<p><a href="/">Open the dashboard</a></p></body></html>
`;
}

export function sendPage(res: express.Response, status: number, title: string, message: string, form = ''): void {
  res.status(status).set({ 'Content-Type': 'text/html; charset=utf-8', 'Cache-Control': 'no-store', 'Referrer-Policy': 'no-referrer', 'X-Content-Type-Options': 'nosniff' }).send(page(title, message, form));
}

const NO_LINK = 'This unsubscribe link is not one Bill Progress sent, or its watchlist was deleted.';

export function emailPages(accountEmail: AccountEmailService, notifications: WatchlistNotificationService, logger: Logger): Router {
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
  router.get('/email/unsubscribe/:token', async (req, res) => {
    try {
      const name = await notifications.watchlistNameOf(String(req.params.token));
      if (name === null) return sendPage(res, 404, 'Unknown link', NO_LINK);
      // the form posts back to this very address (relative), as the one-click POST does
      return sendPage(res, 200, 'Stop these emails?', `Stop the emails of your watchlist “${name}”? You can turn them on again in its notification settings.`, '<form method="post"><button type="submit">Stop these emails</button></form>');
    } catch (error) {
      logger.error({ err: error }, 'unsubscribe page failed');
      return sendPage(res, 500, 'Something went wrong', 'Open the link again in a moment.');
    }
  });
  router.post('/email/unsubscribe/:token', async (req, res) => {
    try {
      const done = await notifications.unsubscribe(String(req.params.token));
      if (!done) return sendPage(res, 404, 'Unknown link', NO_LINK);
      return sendPage(res, 200, 'Emails stopped', `Your watchlist “${done.watchlistName}” sends no more emails. You can turn them on again in its notification settings.`);
    } catch (error) {
      logger.error({ err: error }, 'unsubscribe failed');
      return sendPage(res, 500, 'Something went wrong', 'The emails could not be stopped just now: try again in a moment.');
    }
  });
  return router;
}
