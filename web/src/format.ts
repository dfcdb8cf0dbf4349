/** How numbers and words of the API read on the page. */
/**
 * A probability in words. Only a settled bill's figures are exactly 0 or 1 (they follow from its
 * status); a model's figure that rounds to 100% or 0% is rounding, not certainty, and says so.
 */
export function percent(p: number | null | undefined): string {
  if (p === null || p === undefined) return '—';
  if (p === 0 || p === 1) return `${p * 100}%`;
  if (p >= 0.995) return 'over 99%';
  if (p < 0.01) return 'under 1%';
  return `${(p * 100).toFixed(p < 0.1 ? 1 : 0)}%`;
}

export const days = (d: number | null | undefined) => (d === null || d === undefined ? '—' : `${d < 10 ? d.toFixed(1) : Math.round(d)} days`);

/** GraphQL enum names (GOVERNMENT_BILL) as words (government bill). */
export const words = (value: string | null | undefined) => (value ? value.toLowerCase().replace(/_/g, ' ') : '—');

/** A time as the UK reads it (Europe/London, GMT or BST), for what is set in UK time, such as a digest's. */
export const ukDateTime = (iso: string) => `${new Date(iso).toLocaleString('en-GB', { weekday: 'short', day: 'numeric', month: 'short', year: 'numeric', hour: '2-digit', minute: '2-digit', timeZone: 'Europe/London' })} UK time`;

export const dateTime = (iso: string | null | undefined) => (iso ? new Date(iso).toLocaleString('en-GB', { dateStyle: 'medium', timeStyle: 'short', timeZone: 'UTC' }) + ' UTC' : '—');

const UTC_DAY = (options: Intl.DateTimeFormatOptions) => new Intl.DateTimeFormat('en-GB', { ...options, timeZone: 'UTC' });
const DAY_MONTH = UTC_DAY({ day: 'numeric', month: 'short' });
const MONTH_YEAR = UTC_DAY({ month: 'short', year: 'numeric' });
const YEAR = UTC_DAY({ year: 'numeric' });

/** A time axis's tick (Unix seconds) the UK way, day before month, as coarse as the ticks' spacing (seconds) allows. */
export function axisDate(seconds: number, spacing: number): string {
  const day = new Date(seconds * 1000);
  if (spacing >= 365 * 86_400) return YEAR.format(day);
  if (spacing >= 28 * 86_400) return MONTH_YEAR.format(day);
  return DAY_MONTH.format(day);
}

export const date = (iso: string | null | undefined) => (iso ? new Date(`${iso.slice(0, 10)}T00:00:00Z`).toLocaleDateString('en-GB', { dateStyle: 'medium', timeZone: 'UTC' }) : '—');

const KIND_NAMES: Record<string, string> = {
  GOVERNMENT: 'Government bill',
  PMB_BALLOT: 'Private member’s bill (ballot)',
  PMB_TEN_MINUTE_RULE: 'Private member’s bill (ten-minute rule)',
  PMB_PRESENTATION: 'Private member’s bill (presentation)',
  PMB_LORDS: 'Private member’s bill (Lords)',
  PRIVATE: 'Private bill',
  HYBRID: 'Hybrid bill',
  CONSOLIDATION: 'Consolidation bill',
};
export const kindName = (kind: string) => KIND_NAMES[kind] ?? words(kind);

const KIND_PLURALS: Record<string, string> = {
  GOVERNMENT: 'government bills',
  PMB_BALLOT: 'private members’ ballot bills',
  PMB_TEN_MINUTE_RULE: 'private members’ ten-minute rule bills',
  PMB_PRESENTATION: 'private members’ presentation bills',
  PMB_LORDS: 'private members’ bills from the Lords',
  PRIVATE: 'private, hybrid and consolidation bills',
  HYBRID: 'private, hybrid and consolidation bills',
  CONSOLIDATION: 'private, hybrid and consolidation bills',
};
/** The bills of a kind, as the model groups them (the rare kinds together). */
export const kindPlural = (kind: string) => KIND_PLURALS[kind] ?? `${words(kind)} bills`;

/** An enum value as a capitalised phrase: COMMONS → Commons, ROYAL_ASSENT → Royal assent. */
export const label = (value: string | null | undefined) => capitalise(words(value));

export const capitalise = (text: string) => text.charAt(0).toUpperCase() + text.slice(1);

/** The level the service gives a risk (src/model/serve/predictor.ts riskLevel): low below 0.3, high above 0.7. */
export const riskLevel = (p: number) => (p < 0.3 ? 'low' : p > 0.7 ? 'high' : 'medium');

/** A risk as its number with its level, the one way every table and report shows it: "53% (medium)". */
export const risk = (p: number, level: string = riskLevel(p)) => `${percent(p)} (${level.toLowerCase()})`;
