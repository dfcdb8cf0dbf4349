/** How numbers and words of the API read on the page. */
export const percent = (p: number | null | undefined) => (p === null || p === undefined ? '—' : `${(p * 100).toFixed(p < 0.1 && p > 0 ? 1 : 0)}%`);

export const days = (d: number | null | undefined) => (d === null || d === undefined ? '—' : `${d < 10 ? d.toFixed(1) : Math.round(d)} days`);

/** GraphQL enum names (GOVERNMENT_BILL) as words (government bill). */
export const words = (value: string | null | undefined) => (value ? value.toLowerCase().replace(/_/g, ' ') : '—');

export const dateTime = (iso: string | null | undefined) => (iso ? new Date(iso).toLocaleString('en-GB', { dateStyle: 'medium', timeStyle: 'short', timeZone: 'UTC' }) + ' UTC' : '—');

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

/** An enum value as a capitalised phrase: COMMONS → Commons, ROYAL_ASSENT → Royal assent. */
export const label = (value: string | null | undefined) => {
  const text = words(value);
  return text.charAt(0).toUpperCase() + text.slice(1);
};
