import { useEffect, useState } from 'preact/hooks';
import { days, dateTime, label, percent, risk } from '../format';
import { errorMessage, gql } from '../graphql';
import { ALERT_HISTORY, ALERT_THRESHOLDS, CHECK_ALERTS, CREATE_ALERT_THRESHOLD, DELETE_ALERT_THRESHOLD } from '../operations';
import { useSession } from '../session';
import { ErrorMessage, Notice } from './Status';
import { ACTIONS, Table } from './Table';
import type * as Schema from '../generated/schema';

/** What the component selects, typed from the schema. */
type Threshold = Pick<Schema.AlertThreshold, 'id' | 'watchlistId' | 'billId' | 'alertType' | 'comparison' | 'thresholdValue' | 'active' | 'inactiveReason' | 'lastTriggeredAt'>;
type Trigger = Pick<Schema.AlertTrigger, 'id' | 'billId' | 'alertType' | 'valueSeen' | 'thresholdValue' | 'triggeredAt' | 'watchlistName'>;

/** The eight alert types; trend and spike are Pro's. A risk is shown with its level, as the watchlist's table shows it. */
const TYPES: { value: Schema.AlertType; text: string; pro?: boolean; unit: string; show: (value: number) => string }[] = [
  { value: 'PROBABILITY', text: 'Royal Assent probability', unit: '0–1', show: percent },
  { value: 'TIMELINE_ETA', text: 'Days to the next stage', unit: 'days', show: days },
  { value: 'STALL_RISK', text: 'Stall risk', unit: '0–1', show: (v) => risk(v) },
  { value: 'AMENDMENT_RISK', text: 'Amendment risk', unit: '0–1', show: (v) => risk(v) },
  { value: 'CLOSE_VOTE', text: 'Close vote risk', unit: '0–1', show: (v) => risk(v) },
  { value: 'WITHDRAWAL_RISK', text: 'Withdrawal risk', unit: '0–1', show: (v) => risk(v) },
  { value: 'TREND', text: 'Upward trend', unit: '0–1', pro: true, show: percent },
  { value: 'SPIKE', text: 'Probability spike', unit: '0–1', pro: true, show: percent },
];
const typeOf = (value: string) => TYPES.find((t) => t.value === value);
const typeText = (value: string) => typeOf(value)?.text ?? label(value);
/** A value seen or a threshold in the type's own terms: 53% (medium), 12 days. */
const shown = (alertType: string, value: number) => typeOf(alertType)?.show(value) ?? String(value);
const bound = (alertType: string, value: number) => (alertType === 'TIMELINE_ETA' ? days(value) : percent(value));

/** What a Pilot account does not get of a threshold (specification 4.4 and 6): said beside each one, so none fires unseen. */
const PRO_ADDS = 'Pro: checked every hour, sent as a crossed-threshold webhook event, kept in the alert history';

/** A watchlist's alert thresholds with the tier rules, "Check now", and the alert history (Pro). */
export function Thresholds({ watchlistId, bills }: { watchlistId: number; bills: { id: number; title: string }[] }) {
  const { me } = useSession();
  const pro = me?.tier === 'PRO';
  const [thresholds, setThresholds] = useState<Threshold[]>([]);
  const [alertType, setAlertType] = useState('PROBABILITY');
  const [comparison, setComparison] = useState('');
  const [value, setValue] = useState('0.5');
  const [billId, setBillId] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [checked, setChecked] = useState<string | null>(null);
  const [history, setHistory] = useState<{ totalCount: number; triggers: Trigger[]; analytics: { byType: { key: string; count: number }[] } } | null>(null);

  const load = async () => {
    const data = await gql<{ alertThresholds: Threshold[] }>(ALERT_THRESHOLDS);
    setThresholds(data.alertThresholds.filter((t) => t.watchlistId === watchlistId));
    if (pro) setHistory((await gql<{ alertHistory: NonNullable<typeof history> }>(ALERT_HISTORY)).alertHistory);
  };
  useEffect(() => void load().catch((e) => setError(errorMessage(e))), [watchlistId, pro]);

  const act = async (action: () => Promise<void>) => {
    setError(null);
    setChecked(null);
    try {
      await action();
      await load();
    } catch (e) {
      setError(errorMessage(e));
    }
  };
  const create = (event: Event) => {
    event.preventDefault();
    void act(async () => {
      await gql(CREATE_ALERT_THRESHOLD, {
        input: { watchlistId, alertType, thresholdValue: Number(value), ...(comparison ? { comparison } : {}), ...(billId ? { billId: Number(billId) } : {}) },
      });
    });
  };
  const checkNow = () =>
    act(async () => {
      const { checkAlerts } = await gql<{ checkAlerts: { billsChecked: number; thresholdsChecked: number; triggered: Trigger[]; billsBlocked: number[] } }>(CHECK_ALERTS);
      const billName = (id: number) => bills.find((b) => b.id === id)?.title ?? `bill ${id}`;
      const fired = checkAlerts.triggered.map((t) => `${typeText(t.alertType)} on ${billName(t.billId)}: ${shown(t.alertType, t.valueSeen)} (threshold ${bound(t.alertType, t.thresholdValue)})`).join('; ');
      setChecked(
        `Checked ${checkAlerts.thresholdsChecked} thresholds on ${checkAlerts.billsChecked} bills: ${checkAlerts.triggered.length ? `fired: ${fired}` : 'nothing fired'}` +
          (checkAlerts.billsBlocked.length ? `; ${checkAlerts.billsBlocked.length} bills not checked (daily prediction limit)` : '') +
          '.',
      );
    });

  const selected = TYPES.find((t) => t.value === alertType)!;
  return (
    <>
      <h2>Alert thresholds</h2>
      <p class="muted">
        {pro
          ? 'Pro: any number of thresholds, all eight types, checked every hour; a threshold that fires sends a crossed-threshold event to your webhooks and is kept in the alert history.'
          : 'Pilot: up to 5 thresholds per watchlist; trend and spike alerts are Pro’s. A Pilot threshold fires only when you press “Check now”: the hourly check, the crossed-threshold webhook event and the alert history are Pro’s.'}{' '}
        A threshold without a bill watches every bill of the watchlist.
      </p>
      {thresholds.length > 0 ? (
        <Table columns={['Alert', 'When', 'Bill', 'Last fired', ...(pro ? [] : ['What Pro adds']), ACTIONS]}>
          {thresholds.map((t) => (
            <tr key={t.id}>
              <td>
                {typeText(t.alertType)}
                {!t.active && <span class="muted"> (inactive: {t.inactiveReason})</span>}
              </td>
              <td>
                {t.comparison === 'LESS_THAN' ? 'below' : 'above'} {bound(t.alertType, t.thresholdValue)}
              </td>
              <td>{t.billId === null ? 'every bill' : (bills.find((b) => b.id === t.billId)?.title ?? `Bill ${t.billId}`)}</td>
              <td>{t.lastTriggeredAt ? dateTime(t.lastTriggeredAt) : pro ? 'not yet' : 'not yet (Check now checks it)'}</td>
              {!pro && <td class="muted">{PRO_ADDS}</td>}
              <td>
                <button type="button" aria-label={`Delete the ${typeText(t.alertType)} threshold`} onClick={() => act(async () => void (await gql(DELETE_ALERT_THRESHOLD, { id: t.id })))}>
                  Delete
                </button>
              </td>
            </tr>
          ))}
        </Table>
      ) : (
        <p>No thresholds yet.</p>
      )}
      <form class="grid-form" onSubmit={create}>
        <div>
          <label for="alert-type">Alert type</label>
          <select id="alert-type" value={alertType} onChange={(e) => setAlertType(e.currentTarget.value)}>
            {TYPES.map((t) => (
              <option key={t.value} value={t.value} disabled={t.pro && !pro}>
                {t.text}
                {t.pro && !pro ? ' (Pro)' : ''}
              </option>
            ))}
          </select>
        </div>
        <div>
          <label for="alert-comparison">Fires when</label>
          <select id="alert-comparison" value={comparison} onChange={(e) => setComparison(e.currentTarget.value)}>
            <option value="">the usual way ({alertType === 'TIMELINE_ETA' ? 'below' : 'above'})</option>
            <option value="GREATER_THAN">above</option>
            <option value="LESS_THAN">below</option>
          </select>
        </div>
        <div>
          <label for="alert-value">Threshold ({selected.unit})</label>
          <input id="alert-value" type="number" step="any" min={0} required value={value} onInput={(e) => setValue(e.currentTarget.value)} />
        </div>
        <div>
          <label for="alert-bill">Bill</label>
          <select id="alert-bill" value={billId} onChange={(e) => setBillId(e.currentTarget.value)}>
            <option value="">Every bill of the watchlist</option>
            {bills.map((b) => (
              <option key={b.id} value={String(b.id)}>
                {b.title}
              </option>
            ))}
          </select>
        </div>
        <div class="form-actions">
          <button type="submit">Add threshold</button>
          <button type="button" class="secondary" onClick={checkNow}>
            Check now
          </button>
        </div>
      </form>
      <ErrorMessage error={error} />
      {checked && <Notice>{checked}</Notice>}

      <h2>Alert history</h2>
      {!pro && <p class="muted">The alert history and its analytics are Pro’s; “Check now” above says what fires.</p>}
      {history && (
        <>
          <p>
            {history.totalCount} alerts in all
            {history.analytics.byType.length > 0 && `: ${history.analytics.byType.map((c) => `${typeText(c.key.toUpperCase())} ${c.count}`).join(', ')}`}.
          </p>
          {history.triggers.length > 0 && (
            <Table columns={['When', 'Watchlist', 'Bill', 'Alert', 'Value']}>
              {history.triggers.map((t) => (
                <tr key={t.id}>
                  <td>{dateTime(t.triggeredAt)}</td>
                  <td>{t.watchlistName}</td>
                  <td>
                    <a href={`#/bills/${t.billId}`}>{t.billId}</a>
                  </td>
                  <td>{typeText(t.alertType)}</td>
                  <td>
                    {shown(t.alertType, t.valueSeen)} (threshold {bound(t.alertType, t.thresholdValue)})
                  </td>
                </tr>
              ))}
            </Table>
          )}
        </>
      )}
    </>
  );
}
