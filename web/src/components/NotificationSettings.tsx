/**
 * A watchlist's email setting (issue 33): off, instant, a daily or a weekly digest, the digest's
 * time and day (Europe/London), and the event types emailed, Pro-only ones offered to Pro only
 * (the server refuses them for Pilot too; the form only saves a refusal's round trip).
 */
import { useState } from 'preact/hooks';
import type { EmailDelivery, EventType, WatchlistNotifications, Weekday } from '../generated/schema';
import { errorMessage, gql } from '../graphql';
import { SET_WATCHLIST_NOTIFICATIONS } from '../operations';
import { EventTypeChoices } from './EventTypeChoices';
import { ErrorMessage, Notice } from './Status';

export type NotificationSetting = Pick<WatchlistNotifications, 'watchlistId' | 'email' | 'time' | 'day' | 'events'>;

const DELIVERIES: { value: EmailDelivery; label: string }[] = [
  { value: 'OFF', label: 'Off' },
  { value: 'INSTANT', label: 'Instant: each event as it happens' },
  { value: 'DAILY', label: 'Daily digest' },
  { value: 'WEEKLY', label: 'Weekly digest' },
];
const DAYS: Weekday[] = ['MONDAY', 'TUESDAY', 'WEDNESDAY', 'THURSDAY', 'FRIDAY', 'SATURDAY', 'SUNDAY'];
const dayName = (day: Weekday) => day.charAt(0) + day.slice(1).toLowerCase();

export function NotificationSettings({ initial, pro, onSaved }: { initial: NotificationSetting; pro: boolean; onSaved(saved: NotificationSetting): void }) {
  const [email, setEmail] = useState<EmailDelivery>(initial.email);
  const [time, setTime] = useState(initial.time);
  const [day, setDay] = useState<Weekday>(initial.day);
  const [events, setEvents] = useState<EventType[]>(initial.events);
  const [error, setError] = useState<string | null>(null);
  const [saved, setSaved] = useState(false);
  const [busy, setBusy] = useState(false);

  const submit = async (event: Event) => {
    event.preventDefault();
    setError(null);
    setSaved(false);
    if (!events.length) return setError('Choose at least one event type.');
    setBusy(true);
    try {
      const data = await gql<{ setWatchlistNotifications: NotificationSetting }>(SET_WATCHLIST_NOTIFICATIONS, { id: initial.watchlistId, input: { email, time, day, events } });
      setSaved(true);
      onSaved(data.setWatchlistNotifications);
    } catch (e) {
      setError(errorMessage(e));
    } finally {
      setBusy(false);
    }
  };
  const digest = email === 'DAILY' || email === 'WEEKLY';

  return (
    <form onSubmit={submit} class="narrow" aria-label="Email notifications">
      <label for="notify-email">Email</label>
      <select id="notify-email" value={email} onChange={(e) => setEmail(e.currentTarget.value as EmailDelivery)}>
        {DELIVERIES.map((d) => (
          <option key={d.value} value={d.value}>
            {d.label}
          </option>
        ))}
      </select>
      <div class="grid-form">
        <div>
          <label for="notify-time">Digest time</label>
          <input id="notify-time" type="time" required step={60} value={time} disabled={!digest} onInput={(e) => setTime(e.currentTarget.value)} />
        </div>
        <div>
          <label for="notify-day">Weekly digest day</label>
          <select id="notify-day" value={day} disabled={email !== 'WEEKLY'} onChange={(e) => setDay(e.currentTarget.value as Weekday)}>
            {DAYS.map((d) => (
              <option key={d} value={d}>
                {dayName(d)}
              </option>
            ))}
          </select>
        </div>
      </div>
      <p class="hint">Times are UK time (Europe/London). A digest lists what changed since the last one; none is sent when nothing did.</p>
      <EventTypeChoices legend="Events emailed" chosen={events} pro={pro} onChange={setEvents} />
      <ErrorMessage error={error} />
      {saved && <Notice>Email settings saved.</Notice>}
      <button type="submit" disabled={busy}>
        Save email settings
      </button>
    </form>
  );
}
