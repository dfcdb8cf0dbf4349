/**
 * When a digest is due (issue 33): a watchlist's daily digest is a slot at its local time
 * (Europe/London), a weekly one at that time on its day; an account gets one digest per slot
 * occurrence for all its watchlists set to it. Times are London's wall clock through Intl, so a
 * digest at 08:00 goes at 08:00 in winter (GMT) and in summer (BST) alike.
 */
import { addDays } from '../common/dates';
import { londonInstant, londonWallClock, weekdayOf } from '../common/london-time';
import type { Weekday } from './watchlist-notification.service';

/**
 * How late a slot's digest may still go out: a server that was down at 08:00 and back by 14:00
 * sends the 08:00 digest once, late; one down longer skips it, and the next occurrence's digest
 * lists everything since the last one sent, so nothing is lost, only merged.
 */
export const DIGEST_CATCH_UP_MS = 6 * 3600_000;

export interface DigestSlot {
  email: 'daily' | 'weekly';
  /** HH:MM, Europe/London */
  time: string;
  /** a weekly digest's day (ignored for daily) */
  day: Weekday;
}

/** The slot's name, stored with each digest sent: `daily 08:00`, `weekly monday 08:00`. */
export const slotKey = (slot: DigestSlot): string => (slot.email === 'daily' ? `daily ${slot.time}` : `weekly ${slot.day} ${slot.time}`);

const fallsOn = (slot: DigestSlot, date: string) => slot.email === 'daily' || weekdayOf(date) === slot.day;

/** The slot's latest occurrence at or before `now`. */
export function lastOccurrence(slot: DigestSlot, now: Date): Date {
  const today = londonWallClock(now).date;
  for (let back = 0; back <= 8; back++) {
    const date = addDays(today, -back);
    if (!fallsOn(slot, date)) continue;
    const at = londonInstant(date, slot.time);
    if (at.getTime() <= now.getTime()) return at;
  }
  throw new Error(`no occurrence of ${slotKey(slot)} in the last week`);
}

/** The slot's first occurrence after `now`. */
export function nextOccurrence(slot: DigestSlot, now: Date): Date {
  const today = londonWallClock(now).date;
  for (let ahead = 0; ahead <= 8; ahead++) {
    const date = addDays(today, ahead);
    if (!fallsOn(slot, date)) continue;
    const at = londonInstant(date, slot.time);
    if (at.getTime() > now.getTime()) return at;
  }
  throw new Error(`no occurrence of ${slotKey(slot)} in the next week`);
}

/** The occurrence whose digest is due at `now`, if any: the latest one, when it is at most DIGEST_CATCH_UP_MS ago. */
export function dueOccurrence(slot: DigestSlot, now: Date): Date | null {
  const at = lastOccurrence(slot, now);
  return now.getTime() - at.getTime() <= DIGEST_CATCH_UP_MS ? at : null;
}
