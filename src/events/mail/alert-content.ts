/**
 * What an instant alert email says (composition only: outbox.ts composes the MIME, the worker
 * sends): a subject naming the bill, a plain-text and an HTML part with the bill's title, what
 * happened and its facts in the words every channel uses (src/events/event-words.ts), a link to
 * its dashboard page and a footer link to the notification settings; the List-Unsubscribe headers
 * of RFC 2369 and RFC 8058 (one-click, whatever PUBLIC_URL's scheme).
 */
import type { ServiceEvent } from '../event';
import type { MailContent } from './compose';
import { escapeHtml } from '../../common/html';
import { eventFacts, eventSentence, whatHappenedLine } from '../event-words';
import { unsubscribeHeaders, type WatchlistMailLinks } from './links';

export interface AlertLinks extends WatchlistMailLinks {
  billUrl: string;
}

export function alertContent(event: ServiceEvent, billTitle: string, watchlistName: string, links: AlertLinks): MailContent {
  const summary = whatHappenedLine(event.type, event.data);
  const facts = eventFacts(event.type, event.data);
  const text = [
    billTitle,
    '',
    summary,
    ...(facts.length ? ['', ...facts.map((f) => `${f.name}: ${f.value}`)] : []),
    '',
    `The bill: ${links.billUrl}`,
    '',
    '--',
    `You receive this because your watchlist "${watchlistName}" sends instant emails.`,
    `Notification settings: ${links.settingsUrl}`,
    `Stop emails from this watchlist: ${links.unsubscribeUrl}`,
  ].join('\n');
  const html = `<!doctype html><html><body>
<h2>${escapeHtml(billTitle)}</h2>
<p>${escapeHtml(summary)}</p>
${facts.length ? `<table>${facts.map((f) => `<tr><th align="left">${escapeHtml(f.name)}</th><td>${escapeHtml(f.value)}</td></tr>`).join('')}</table>\n` : ''}<p><a href="${escapeHtml(links.billUrl)}">Open the bill in Bill Progress</a></p>
<hr><p style="font-size:small;color:#555">You receive this because your watchlist “${escapeHtml(watchlistName)}” sends instant emails.
<a href="${escapeHtml(links.settingsUrl)}">Notification settings</a> · <a href="${escapeHtml(links.unsubscribeUrl)}">Stop emails from this watchlist</a></p>
</body></html>`;
  return {
    subject: eventSentence(event.type, billTitle, event.data).slice(0, 200),
    text,
    html,
    headers: unsubscribeHeaders(links),
  };
}
