/** The Bills API's dates and date-times, which are UK local time without a zone. */

/** The `YYYY-MM-DD` part of an API date-time; null for anything else. */
export function toIsoDate(value: string | null | undefined): string | null {
  if (typeof value !== 'string') return null;
  const match = /^(\d{4}-\d{2}-\d{2})/.exec(value);
  return match ? match[1]! : null;
}

const LONDON_OFFSET = new Intl.DateTimeFormat('en-GB', { timeZone: 'Europe/London', timeZoneName: 'longOffset' });

/** Europe/London's UTC offset at an instant, as `+HH:MM`. */
function londonOffset(utcMs: number): string {
  const name = LONDON_OFFSET.formatToParts(new Date(utcMs)).find((p) => p.type === 'timeZoneName')?.value ?? 'GMT';
  const match = /([+-])(\d{1,2})(?::?(\d{2}))?/.exec(name);
  return match ? `${match[1]}${match[2]!.padStart(2, '0')}:${match[3] ?? '00'}` : '+00:00';
}

const OFFSET_MS = (offset: string): number => (offset.startsWith('-') ? -1 : 1) * (Number(offset.slice(1, 3)) * 60 + Number(offset.slice(4, 6))) * 60_000;

const DATE_TIME = /^(\d{4}-\d{2}-\d{2})(?:[T ](\d{2}:\d{2}(?::\d{2})?)(?:\.(\d+))?)?\s*(Z|[+-]\d{2}:?\d{2})?$/i;

/**
 * An API date-time with its zone made explicit. The Bills API writes UK local time without a zone
 * (its RSS feed gives the same instants as `+01:00` in summer), and `new Date()` would read such a
 * string in whatever zone the process runs in. The API's digits are kept; a string that already has
 * a zone, or is not a date-time, is returned unchanged.
 */
export function withLondonOffset(value: string): string {
  const match = DATE_TIME.exec(value.trim());
  if (!match || match[4] || !match[2]) return value;
  const time = match[2].length === 5 ? `${match[2]}:00` : match[2];
  const asIfUtc = Date.parse(`${match[1]}T${time}Z`);
  if (Number.isNaN(asIfUtc)) return value;
  // Two passes find the offset in force at the local time, not at the same wall-clock reading in UTC.
  const offset = londonOffset(asIfUtc - OFFSET_MS(londonOffset(asIfUtc)));
  return `${value.trim()}${offset}`;
}

/**
 * An ISO date-time as nanoseconds since the epoch, keeping the API's seven fractional digits that
 * `Date.parse` would cut to milliseconds. A missing zone means UK local time, as in the API. Null when unreadable.
 */
export function timeKey(value: string): bigint | null {
  const match = DATE_TIME.exec(withLondonOffset(value).trim());
  if (!match) {
    const ms = Date.parse(value);
    return Number.isNaN(ms) ? null : BigInt(ms) * 1_000_000n;
  }
  const [, date, time = '00:00:00', fraction = '', zone = 'Z'] = match;
  const normalisedZone = zone.toUpperCase() === 'Z' ? 'Z' : zone.length === 5 ? `${zone.slice(0, 3)}:${zone.slice(3)}` : zone;
  const ms = Date.parse(`${date}T${time.length === 5 ? `${time}:00` : time}${normalisedZone}`);
  if (Number.isNaN(ms)) return null;
  return BigInt(ms) * 1_000_000n + BigInt(fraction.padEnd(9, '0').slice(0, 9));
}
