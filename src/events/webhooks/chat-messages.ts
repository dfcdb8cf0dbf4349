/**
 * The bodies of Slack and Teams webhook deliveries, built from the words every person-facing channel
 * shares (src/events/event-words.ts): Slack's incoming-webhook message (`text` and Block Kit
 * `blocks`) and a Teams Workflows message carrying one Adaptive Card.
 */
import type { ChatFormat } from '../../vocabulary';
import type { ServiceEvent } from '../event';
import { type EventFact, eventFacts, whatHappenedLine } from '../event-words';

/** What a message says besides the event: its bill's title (null for a test event) and where its link goes. */
export interface ChatContext {
  title: string | null;
  /** the bill's dashboard page, or the dashboard's webhooks page for a test event */
  link: string;
}

/** The words both formats show: a headline, what happened, the facts, and the link's label. */
interface ChatWords {
  headline: string;
  happened: string;
  facts: EventFact[];
  linkLabel: string;
  footer: string;
}

const SERVICE = 'Bill Progress';

function chatWords(event: ServiceEvent, context: ChatContext): ChatWords {
  return {
    headline: context.title ?? `${SERVICE} test message`,
    happened: whatHappenedLine(event.type, event.data),
    facts: eventFacts(event.type, event.data),
    linkLabel: context.title ? `Open the bill in ${SERVICE}` : `Open ${SERVICE}`,
    footer: `${SERVICE} · ${event.type} · ${event.timestamp}`,
  };
}

/** Slack's mrkdwn gives &, < and > meaning (entities, links, mentions): each is escaped as Slack asks. */
export const slackEscape = (text: string): string => text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');

/** Slack's limits: a section's text 3,000 characters, a field's 2,000, ten fields a section. */
const SECTION_TEXT_MAX = 3_000;
const FIELD_TEXT_MAX = 2_000;
const FIELDS_MAX = 10;
const cut = (text: string, max: number) => (text.length > max ? `${text.slice(0, max - 1)}…` : text);

/**
 * A Slack incoming-webhook message: `text` (what notifications and clients without blocks show) and
 * blocks: a section with the linked title and what happened, a section of fields (the facts), and
 * a context line naming the service and the event.
 */
export function slackMessage(event: ServiceEvent, context: ChatContext) {
  const w = chatWords(event, context);
  // the link's label cannot hold a `|`, which ends the address
  const label = slackEscape(w.headline).replace(/\|/g, '¦');
  const blocks: Record<string, unknown>[] = [{ type: 'section', text: { type: 'mrkdwn', text: cut(`*<${context.link}|${label}>*\n${slackEscape(w.happened)}`, SECTION_TEXT_MAX) } }];
  if (w.facts.length) {
    blocks.push({ type: 'section', fields: w.facts.slice(0, FIELDS_MAX).map((f) => ({ type: 'mrkdwn', text: cut(`*${slackEscape(f.name)}*\n${slackEscape(f.value)}`, FIELD_TEXT_MAX) })) });
  }
  blocks.push({ type: 'context', elements: [{ type: 'mrkdwn', text: `${slackEscape(w.footer)} · <${context.link}|${slackEscape(w.linkLabel)}>` }] });
  return { text: slackEscape(`${w.headline}: ${w.happened}`), blocks };
}

/** The Adaptive Card version sent: 1.4 is what Teams renders on every client, desktop and mobile. */
export const ADAPTIVE_CARD_VERSION = '1.4';

/**
 * A Teams Workflows message ("Post to a channel when a webhook request is received"): one Adaptive
 * Card attachment with the title, what happened, the facts and a button to the bill's page.
 */
export function teamsMessage(event: ServiceEvent, context: ChatContext) {
  const w = chatWords(event, context);
  const body: Record<string, unknown>[] = [
    { type: 'TextBlock', text: w.headline, weight: 'Bolder', size: 'Medium', wrap: true },
    { type: 'TextBlock', text: w.happened, wrap: true },
  ];
  if (w.facts.length) body.push({ type: 'FactSet', facts: w.facts.map((f) => ({ title: f.name, value: f.value })) });
  body.push({ type: 'TextBlock', text: w.footer, isSubtle: true, size: 'Small', wrap: true });
  return {
    type: 'message',
    attachments: [
      {
        contentType: 'application/vnd.microsoft.card.adaptive',
        contentUrl: null,
        content: {
          $schema: 'http://adaptivecards.io/schemas/adaptive-card.json',
          type: 'AdaptiveCard',
          version: ADAPTIVE_CARD_VERSION,
          body,
          actions: [{ type: 'Action.OpenUrl', title: w.linkLabel, url: context.link }],
        },
      },
    ],
  };
}

/** The JSON body of a chat delivery, stored in the outbox and sent as it is on every attempt. */
export function chatBody(format: ChatFormat, event: ServiceEvent, context: ChatContext): string {
  return JSON.stringify(format === 'slack' ? slackMessage(event, context) : teamsMessage(event, context));
}
