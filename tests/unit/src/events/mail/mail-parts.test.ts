import { simpleParser } from 'mailparser';
import { alertContent } from '../../../../../src/events/mail/alert-content';
import { composeMail, newMessageId, senderDomain } from '../../../../../src/events/mail/compose';
import { classifySmtpError, describeSmtpUrl } from '../../../../../src/events/mail/transport';
import { UnsubscribeTokens } from '../../../../../src/events/mail/unsubscribe';

// The email channel's pure parts: what an SMTP error means, the unsubscribe token, composition.

describe('classifySmtpError', () => {
  it('refuses the address on a 5xx at RCPT or DATA, and retries everything else', () => {
    expect(classifySmtpError({ code: 'EENVELOPE', responseCode: 550, command: 'RCPT TO', message: 'no such user' }).outcome).toBe('refused');
    expect(classifySmtpError({ code: 'EMESSAGE', responseCode: 554, command: 'DATA', message: 'rejected' }).outcome).toBe('refused');
    expect(classifySmtpError({ code: 'EENVELOPE', responseCode: 451, command: 'RCPT TO' }).outcome).toBe('retry');
    expect(classifySmtpError({ code: 'EPROTOCOL', responseCode: 421, command: 'CONN' }).outcome).toBe('retry');
    // our own configuration, not the recipient's address
    expect(classifySmtpError({ code: 'EAUTH', responseCode: 535, command: 'AUTH PLAIN' }).outcome).toBe('retry');
    expect(classifySmtpError({ code: 'EENVELOPE', responseCode: 550, command: 'MAIL FROM' }).outcome).toBe('retry');
    expect(classifySmtpError(Object.assign(new Error('connect ECONNREFUSED'), { code: 'ESOCKET' }))).toEqual({ outcome: 'retry', error: 'ESOCKET: connect ECONNREFUSED' });
  });

  it('names the server without its credentials', () => {
    expect(describeSmtpUrl('smtp://user:s3cret@mail.example.com:587')).toBe('smtp://mail.example.com:587');
  });
});

describe('UnsubscribeTokens', () => {
  const tokens = new UnsubscribeTokens(Buffer.alloc(32, 7));
  it('opens the watchlist it was made for and no other; a token of another key opens nothing', () => {
    const token = tokens.tokenFor(42);
    expect(token).toMatch(/^42\.[A-Za-z0-9_-]{43}$/);
    expect(tokens.watchlistOf(token)).toBe(42);
    expect(tokens.watchlistOf(token.replace(/^42/, '43'))).toBeNull();
    expect(new UnsubscribeTokens(Buffer.alloc(32, 8)).watchlistOf(token)).toBeNull();
    for (const bad of ['', '42', '42.', `0.${token.split('.')[1]}`, `${token}x`]) expect(tokens.watchlistOf(bad)).toBeNull();
  });
});

describe('composeMail', () => {
  it('builds both parts with the fixed Message-ID, Date, event id and extra headers, parsed back by mailparser', async () => {
    const messageId = newMessageId('Bill Progress <alerts@Bills.Example.com>');
    expect(messageId).toMatch(/^<[0-9a-f]{32}@bills\.example\.com>$/);
    expect(senderDomain('plain@x.org')).toBe('x.org');
    const content = alertContent(
      { id: 'evt_1', type: 'bill.stage_changed', timestamp: '2021-11-26T09:00:00.000Z', data: { bill_id: 2900, stage: 'second_reading', house: 'Commons', date: '2021-11-26' } },
      'A <Bill> & more',
      'Marriage law',
      { billUrl: 'https://b.test/#/bills/2900', settingsUrl: 'https://b.test/#/watchlists/7', unsubscribeUrl: 'https://b.test/email/unsubscribe/7.x', unsubscribeMailto: 'mailto:alerts@b.test?subject=unsubscribe%207.x' },
    );
    const date = new Date('2026-11-22T12:00:00Z');
    const { raw } = await composeMail({ from: 'Bill Progress <alerts@b.test>', to: 'reader@example.com', eventId: 'evt_1', messageId, date, content });
    const parsed = await simpleParser(raw);
    expect(parsed.messageId).toBe(messageId);
    expect(parsed.date?.toISOString()).toBe(date.toISOString());
    expect(parsed.headers.get('x-bill-progress-event-id')).toBe('evt_1');
    expect(raw).toMatch(/^List-Unsubscribe-Post: List-Unsubscribe=One-Click\r$/m);
    expect(raw.replace(/\r\n[ \t]+/g, ' ')).toMatch(/^List-Unsubscribe: <https:\/\/b\.test\/email\/unsubscribe\/7\.x>, <mailto:alerts@b\.test\?subject=unsubscribe%207\.x>\r$/m);
    expect(parsed.subject).toBe('A <Bill> & more: second reading (Commons) on 2021-11-26');
    // what happened and its facts, in the words the Atom feed and chat messages use
    expect(parsed.text).toContain('Second reading (Commons) on 2021-11-26\n\nStage: second reading\nHouse: Commons\nDate: 2021-11-26');
    expect(parsed.html).toContain('<tr><th align="left">Stage</th><td>second reading</td></tr>');
    expect(parsed.text).toContain('https://b.test/#/bills/2900');
    // the title is escaped in the HTML part
    expect(parsed.html).toContain('A &lt;Bill&gt; &amp; more');
  });
});
