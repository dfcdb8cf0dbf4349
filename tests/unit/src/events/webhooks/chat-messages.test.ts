import type { ServiceEvent } from '../../../../../src/events/event';
import { chatBody, slackEscape, slackMessage, teamsMessage } from '../../../../../src/events/webhooks/chat-messages';

// The shapes Slack's incoming webhooks and Teams' Workflows accept (Block Kit; Adaptive Cards 1.4).

const LINK = 'https://bills.example.com/#/bills/2900';
const stageChanged: ServiceEvent = {
  id: 'evt_1',
  type: 'bill.stage_changed',
  timestamp: '2021-11-19T09:00:00.000Z',
  data: { bill_id: 2900, stage_record_id: 7, stage: 'second_reading', house: 'Commons', date: '2021-11-19' },
};
const highProbability: ServiceEvent = {
  id: 'evt_2',
  type: 'prediction.high_probability',
  timestamp: '2021-11-20T09:00:00.000Z',
  data: { bill_id: 2900, reference_date: '2021-11-20', model_version: 4, predictions: { royal_assent: { probability: 0.8123 }, next_stage_30d: { probability: 0.4 }, timeline_eta: { days: 12 } } },
};
const title = 'Marriage and Civil Partnership (Minimum Age) Bill';

/** Block Kit's rules for the blocks we send: sections of mrkdwn text or up to 10 fields, context of mrkdwn elements. */
function expectValidBlocks(blocks: any[]) {
  expect(blocks.length).toBeGreaterThan(0);
  expect(blocks.length).toBeLessThanOrEqual(50);
  for (const block of blocks) {
    expect(['section', 'context']).toContain(block.type);
    if (block.type === 'section') {
      expect(block.text ?? block.fields).toBeDefined();
      if (block.text) expect(block.text).toEqual({ type: 'mrkdwn', text: expect.any(String) });
      if (block.text) expect(block.text.text.length).toBeLessThanOrEqual(3000);
      if (block.fields) {
        expect(block.fields.length).toBeLessThanOrEqual(10);
        for (const field of block.fields) expect(field).toEqual({ type: 'mrkdwn', text: expect.any(String) });
        for (const field of block.fields) expect(field.text.length).toBeLessThanOrEqual(2000);
      }
    } else {
      expect(block.elements.length).toBeGreaterThan(0);
      expect(block.elements.length).toBeLessThanOrEqual(10);
      for (const element of block.elements) expect(element).toEqual({ type: 'mrkdwn', text: expect.any(String) });
    }
  }
}

describe('Slack messages', () => {
  it('say the bill, what happened and its facts, with a link to its dashboard page, in text and blocks', () => {
    const message = slackMessage(stageChanged, { title, link: LINK });
    expect(message.text).toBe('Marriage and Civil Partnership (Minimum Age) Bill: Second reading (Commons) on 2021-11-19');
    expectValidBlocks(message.blocks);
    expect(message.blocks[0]).toEqual({ type: 'section', text: { type: 'mrkdwn', text: `*<${LINK}|${title}>*\nSecond reading (Commons) on 2021-11-19` } });
    expect(message.blocks[1]).toEqual({
      type: 'section',
      fields: [
        { type: 'mrkdwn', text: '*Stage*\nsecond reading' },
        { type: 'mrkdwn', text: '*House*\nCommons' },
        { type: 'mrkdwn', text: '*Date*\n2021-11-19' },
      ],
    });
    expect(message.blocks[2]).toEqual({ type: 'context', elements: [{ type: 'mrkdwn', text: `Bill Progress · bill.stage_changed · 2021-11-19T09:00:00.000Z · <${LINK}|Open the bill in Bill Progress>` }] });
  });

  it('give a prediction’s probabilities as percentages', () => {
    const message = slackMessage(highProbability, { title, link: LINK });
    expect(message.text).toBe(`${title}: Royal Assent now likely (81%)`);
    expectValidBlocks(message.blocks);
    expect((message.blocks[1] as any).fields.map((f: { text: string }) => f.text)).toEqual(['*Royal Assent*\n81%', '*Next stage within 30 days*\n40%', '*Next stage expected in*\n12 days', '*As of*\n2021-11-20', '*Model version*\n4']);
    const moved = { ...highProbability, data: { ...highProbability.data, previous: { royal_assent: { probability: 0.62 }, next_stage_30d: { probability: 0.4 } } } };
    expect((slackMessage(moved, { title, link: LINK }).blocks[1] as any).fields.slice(0, 2).map((f: { text: string }) => f.text)).toEqual(['*Royal Assent*\n81% (was 62%)', '*Next stage within 30 days*\n40% (was 40%)']);
  });

  it('escape &, < and > everywhere (mrkdwn), and keep a title from ending its link', () => {
    expect(slackEscape('a & <b> c')).toBe('a &amp; &lt;b&gt; c');
    const message = slackMessage({ ...stageChanged, data: { ...stageChanged.data, house: 'Lords' } }, { title: 'Rates & Charges <Wales> | Bill', link: LINK });
    expect(message.text).toBe('Rates &amp; Charges &lt;Wales&gt; | Bill: Second reading (Lords) on 2021-11-19');
    expect((message.blocks[0] as any).text.text).toBe(`*<${LINK}|Rates &amp; Charges &lt;Wales&gt; ¦ Bill>*\nSecond reading (Lords) on 2021-11-19`);
    expect(JSON.stringify(message.blocks)).not.toMatch(/<Wales>|& /);
  });

  it('of a test event name the service and link to its webhooks page', () => {
    const test: ServiceEvent = { id: 'evt_t', type: 'webhook.test', timestamp: '2026-11-22T12:00:00.000Z', data: { bill_id: 0, webhook_id: 3, message: 'A test event from Bill Progress.' } };
    const message = slackMessage(test, { title: null, link: 'https://bills.example.com/#/webhooks' });
    expect(message.text).toBe('Bill Progress test message: A test event from Bill Progress.');
    expectValidBlocks(message.blocks);
  });
});

describe('Teams messages', () => {
  it('are a message with one Adaptive Card: title, what happened, the facts and a button to the bill’s page', () => {
    const message = teamsMessage(stageChanged, { title, link: LINK });
    expect(message.type).toBe('message');
    expect(message.attachments).toHaveLength(1);
    const [attachment] = message.attachments;
    expect(attachment.contentType).toBe('application/vnd.microsoft.card.adaptive');
    const card = attachment.content;
    expect(card).toMatchObject({ $schema: 'http://adaptivecards.io/schemas/adaptive-card.json', type: 'AdaptiveCard', version: '1.4' });
    expect(card.body.map((b: any) => b.type)).toEqual(['TextBlock', 'TextBlock', 'FactSet', 'TextBlock']);
    expect(card.body[0]).toMatchObject({ text: title, weight: 'Bolder', wrap: true });
    expect(card.body[1]).toMatchObject({ text: 'Second reading (Commons) on 2021-11-19', wrap: true });
    expect(card.body[2]).toEqual({ type: 'FactSet', facts: [{ title: 'Stage', value: 'second reading' }, { title: 'House', value: 'Commons' }, { title: 'Date', value: '2021-11-19' }] });
    expect(card.actions).toEqual([{ type: 'Action.OpenUrl', title: 'Open the bill in Bill Progress', url: LINK }]);
  });

  it('carry every value as plain text (Adaptive Cards need no escaping of &, <, >), probabilities as percentages', () => {
    const body = teamsMessage(highProbability, { title: 'A & <B>', link: LINK }).attachments[0].content.body as any[];
    expect(body[0].text).toBe('A & <B>');
    expect(body[2].facts.find((f: any) => f.title === 'Royal Assent')).toEqual({ title: 'Royal Assent', value: '81%' });
    for (const block of body) if (block.type === 'FactSet') for (const fact of block.facts) expect(typeof fact.value).toBe('string');
  });
});

it('chat bodies are the JSON of their format’s message', () => {
  expect(JSON.parse(chatBody('slack', stageChanged, { title, link: LINK }))).toEqual(slackMessage(stageChanged, { title, link: LINK }));
  expect(JSON.parse(chatBody('teams', stageChanged, { title, link: LINK }))).toEqual(teamsMessage(stageChanged, { title, link: LINK }));
});
