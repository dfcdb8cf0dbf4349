/**
 * What a digest email says (composition only: the digest service gathers, outbox.ts composes the
 * MIME): for each bill that changed, its title and link, what changed (stages, scheduled sittings,
 * probability moves, alerts held back by the daily bound) and its current Royal Assent and
 * next-stage probabilities and ETA; a plain-text and an HTML part, the watchlists' settings and
 * one-click unsubscribe links in the footer, and List-Unsubscribe headers (of the first watchlist:
 * a header names one list).
 */
import { escapeHtml } from '../../common/html';
import type { MailContent } from './compose';
import { unsubscribeHeaders, type WatchlistMailLinks } from './links';

export interface DigestBill {
  billId: number;
  title: string;
  billUrl: string;
  /** one line each, oldest first */
  changes: string[];
  /** now, from the serving model; null when it has no answer for the bill */
  royalAssent: number | null;
  nextStage30d: number | null;
  etaDays: number | null;
}

export interface DigestWatchlist {
  id: number;
  name: string;
  links: WatchlistMailLinks;
}

export interface DigestDraft {
  /** `daily 08:00`, `weekly monday 08:00` */
  slot: string;
  bills: DigestBill[];
  watchlists: DigestWatchlist[];
}

const percent = (p: number | null) => (p === null ? 'n/a' : `${Math.round(p * 100)}%`);
const eta = (days: number | null) => (days === null ? 'no further stage expected' : `${Math.round(days)} ${Math.round(days) === 1 ? 'day' : 'days'}`);

/** The numbers shown under each bill. */
export const billFigures = (b: DigestBill): string => `Royal Assent ${percent(b.royalAssent)} · next stage within 30 days ${percent(b.nextStage30d)} · next stage expected in ${eta(b.etaDays)}`;

/** A probability move line: `Royal Assent probability 40% → 47%`. */
export const probabilityMove = (label: string, from: number, to: number): string => `${label} probability ${percent(from)} → ${percent(to)}`;

const subjectOf = (d: DigestDraft) => {
  const kind = d.slot.startsWith('weekly') ? 'Weekly' : 'Daily';
  const changes = d.bills.reduce((n, b) => n + b.changes.length, 0);
  return `${kind} digest: ${changes} ${changes === 1 ? 'change' : 'changes'} to ${d.bills.length} ${d.bills.length === 1 ? 'bill' : 'bills'}`;
};

export function digestContent(d: DigestDraft): MailContent {
  const names = d.watchlists.map((w) => `"${w.name}"`).join(', ');
  const text = [
    subjectOf(d),
    '',
    ...d.bills.flatMap((b) => [b.title, ...b.changes.map((c) => `  - ${c}`), `  ${billFigures(b)}`, `  ${b.billUrl}`, '']),
    '--',
    `You receive this because your ${d.watchlists.length === 1 ? 'watchlist' : 'watchlists'} ${names} ${d.watchlists.length === 1 ? 'sends' : 'send'} a ${d.slot} digest (Europe/London).`,
    ...d.watchlists.flatMap((w) => [`Notification settings for "${w.name}": ${w.links.settingsUrl}`, `Stop emails from "${w.name}": ${w.links.unsubscribeUrl}`]),
  ].join('\n');
  const html = `<!doctype html><html><body>
<h2>${escapeHtml(subjectOf(d))}</h2>
${d.bills
  .map(
    (b) => `<h3><a href="${escapeHtml(b.billUrl)}">${escapeHtml(b.title)}</a></h3>
<ul>${b.changes.map((c) => `<li>${escapeHtml(c)}</li>`).join('')}</ul>
<p>${escapeHtml(billFigures(b))}</p>`,
  )
  .join('\n')}
<hr><p style="font-size:small;color:#555">You receive this because your ${d.watchlists.length === 1 ? 'watchlist' : 'watchlists'} ${escapeHtml(names)} ${d.watchlists.length === 1 ? 'sends' : 'send'} a ${escapeHtml(d.slot)} digest (Europe/London).<br>
${d.watchlists.map((w) => `“${escapeHtml(w.name)}”: <a href="${escapeHtml(w.links.settingsUrl)}">Notification settings</a> · <a href="${escapeHtml(w.links.unsubscribeUrl)}">Stop emails from this watchlist</a>`).join('<br>\n')}</p>
</body></html>`;
  return { subject: subjectOf(d), text, html, headers: unsubscribeHeaders(d.watchlists[0].links) };
}
