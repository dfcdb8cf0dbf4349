/**
 * How an event is told to a person, on every channel that speaks to people (Atom entries, Slack and
 * Teams messages, alert and digest emails): the sentence saying what happened to the bill, the facts beside it (stage, house,
 * date, probabilities), and the address of the bill's page on the dashboard.
 */

/** A fact shown beside the sentence: a label and its value, both plain text. */
export interface EventFact {
  name: string;
  value: string;
}

type Data = Record<string, unknown>;

const stageWords = (stage: unknown) => (stage === 'royal_assent' ? 'Royal Assent' : typeof stage === 'string' ? stage.replace(/_/g, ' ') : 'a stage');
const inHouse = (h: unknown) => (h === 'Commons' || h === 'Lords' ? ` (${h})` : '');
const pct = (p: unknown) => (typeof p === 'number' ? `${Math.round(p * 100)}%` : '?');
const probabilityOf = (data: Data, output: string) => (data.predictions as Record<string, { probability?: number }> | undefined)?.[output]?.probability;
const etaDaysOf = (data: Data) => (data.predictions as { timeline_eta?: { days?: number | null } } | undefined)?.timeline_eta?.days;

/** The bill's page on the dashboard, under PUBLIC_URL (given without a trailing slash or with one). */
export const billPageUrl = (publicUrl: string, billId: number): string => `${publicUrl.replace(/\/+$/, '')}/#/bills/${billId}`;

/** The dashboard's list of webhook endpoints, where a test message links to. */
export const webhooksPageUrl = (publicUrl: string): string => `${publicUrl.replace(/\/+$/, '')}/#/webhooks`;

/** What happened, without the bill's title (a chat message shows the title above it); an unknown type still gets words. */
export function whatHappened(type: string, data: Data): string {
  switch (type) {
    case 'bill.stage_changed':
      return `${stageWords(data.stage)}${inHouse(data.house)} on ${String(data.date)}`;
    case 'bill.stage_scheduled':
      return `${stageWords(data.stage)}${inHouse(data.house)} set down for ${String(data.scheduled_for)}`;
    case 'prediction.updated':
      return `prediction updated (Royal Assent ${pct(probabilityOf(data, 'royal_assent'))}, next stage within 30 days ${pct(probabilityOf(data, 'next_stage_30d'))})`;
    case 'prediction.imminent_stage_change':
      return `next stage likely within a week (${pct(probabilityOf(data, 'next_stage_30d'))} within 30 days)`;
    case 'prediction.high_probability':
      return `Royal Assent now likely (${pct(probabilityOf(data, 'royal_assent'))})`;
    case 'prediction.probability_spike':
      return `a probability spike (Royal Assent ${pct(probabilityOf(data, 'royal_assent'))}, next stage within 30 days ${pct(probabilityOf(data, 'next_stage_30d'))})`;
    case 'prediction.trending_up':
      return `Royal Assent trending up (${pct(probabilityOf(data, 'royal_assent'))})`;
    case 'prediction.crossed_threshold':
      return `alert threshold crossed (${String(data.alert_type)} ${String(data.comparison).replace('_', ' ')} ${String(data.threshold_value)}; seen ${String(data.value)})`;
    case 'webhook.test':
      return typeof data.message === 'string' ? data.message : 'a test message';
    default:
      return type;
  }
}

/** What happened as a line of its own, under the bill's title or in a list: capitalised. */
export function whatHappenedLine(type: string, data: Data): string {
  const happened = whatHappened(type, data);
  return happened.charAt(0).toUpperCase() + happened.slice(1);
}

/** The sentence an event is told in: the bill's title, then what happened. */
export const eventSentence = (type: string, title: string, data: Data): string => `${title}: ${whatHappened(type, data)}`;

/** The facts of an event, in the order shown; none that the event does not carry. */
export function eventFacts(type: string, data: Data): EventFact[] {
  const facts: EventFact[] = [];
  const add = (name: string, value: unknown, shown: (v: unknown) => string = String) => {
    if (value !== undefined && value !== null) facts.push({ name, value: shown(value) });
  };
  if (type.startsWith('bill.')) {
    add('Stage', data.stage, stageWords);
    add('House', data.house);
    add('Date', data.date);
    add('Set down for', data.scheduled_for);
    add('Previously set down for', data.previously_scheduled_for);
  } else if (type === 'prediction.crossed_threshold') {
    add('Alert', data.alert_type, (a) => `${String(a)} ${String(data.comparison).replace('_', ' ')} ${String(data.threshold_value)}`);
    add('Value seen', data.value);
    add('As of', data.reference_date);
  } else if (type.startsWith('prediction.')) {
    // with what it was at the last refresh, when the event carries it: a move is what the reader wants to see
    const was = (output: string) => {
      const before = (data.previous as Record<string, { probability?: number }> | undefined)?.[output]?.probability;
      return (p: unknown) => (typeof before === 'number' ? `${pct(p)} (was ${pct(before)})` : pct(p));
    };
    add('Royal Assent', probabilityOf(data, 'royal_assent'), was('royal_assent'));
    add('Next stage within 30 days', probabilityOf(data, 'next_stage_30d'), was('next_stage_30d'));
    add('Next stage expected in', etaDaysOf(data), (d) => `${String(d)} ${d === 1 ? 'day' : 'days'}`);
    add('As of', data.reference_date);
    add('Model version', data.model_version);
  } else if (type === 'webhook.test') {
    add('Webhook', data.webhook_id);
  }
  return facts;
}
