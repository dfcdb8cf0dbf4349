/**
 * What an instant alert email says (composition only: outbox.ts composes the MIME, the worker
 * sends): a subject naming the bill, a plain-text and an HTML part with the bill's title, what
 * happened, a link to its dashboard page and a footer link to the notification settings; the
 * List-Unsubscribe headers of RFC 2369 and RFC 8058 (one-click, whatever PUBLIC_URL's scheme).
 */
import type { ServiceEvent } from '../event';
import type { MailContent } from './compose';
import { escapeHtml } from '../../common/html';
import { unsubscribeHeaders, type WatchlistMailLinks } from './links';

export interface AlertLinks extends WatchlistMailLinks {
  billUrl: string;
}

const words = (value: unknown) => String(value ?? '').replace(/_/g, ' ');
const percent = (value: unknown) => (typeof value === 'number' ? `${Math.round(value * 100)}%` : 'n/a');

/** One line saying what happened, from the event's payload. */
export function eventSummary(event: ServiceEvent): string {
  const d = event.data as Record<string, unknown> & { predictions?: Record<string, { probability?: number }> };
  switch (event.type) {
    case 'bill.stage_changed':
      return `New stage: ${words(d.stage)} (${words(d.house)}) on ${d.date}`;
    case 'bill.stage_scheduled':
      return `Stage scheduled: ${words(d.stage)} (${words(d.house)}) set down for ${d.scheduled_for}`;
    case 'prediction.imminent_stage_change':
      return `Next stage likely soon: ${percent(d.predictions?.next_stage_30d?.probability)} within 30 days`;
    case 'prediction.crossed_threshold':
      return `Your alert threshold was crossed: ${words(d.alert_type)} ${words(d.comparison)} ${d.threshold_value} (now ${d.value})`;
    default:
      return `${words(event.type.replace('.', ': '))}: Royal Assent ${percent(d.predictions?.royal_assent?.probability)}, next stage within 30 days ${percent(d.predictions?.next_stage_30d?.probability)}`;
  }
}

export function alertContent(event: ServiceEvent, billTitle: string, watchlistName: string, links: AlertLinks): MailContent {
  const summary = eventSummary(event);
  const text = [
    billTitle,
    '',
    summary,
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
<p><a href="${escapeHtml(links.billUrl)}">Open the bill in Bill Progress</a></p>
<hr><p style="font-size:small;color:#555">You receive this because your watchlist “${escapeHtml(watchlistName)}” sends instant emails.
<a href="${escapeHtml(links.settingsUrl)}">Notification settings</a> · <a href="${escapeHtml(links.unsubscribeUrl)}">Stop emails from this watchlist</a></p>
</body></html>`;
  return {
    subject: `${billTitle}: ${summary}`.slice(0, 200),
    text,
    html,
    headers: unsubscribeHeaders(links),
  };
}
