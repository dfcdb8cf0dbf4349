import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { Writable } from 'node:stream';
import express from 'express';
import { loggedPath, requestLogging } from '../../../../../src/doors/http/request-id';
import { createLogger } from '../../../../../src/logger';

/** An app behind requestLogging whose log lines and observed requests the test reads. */
async function loggedApp(extraObserver?: () => void) {
  const lines: Record<string, unknown>[] = [];
  const sink = new Writable({
    write(chunk: Buffer, _encoding, done) {
      for (const line of chunk.toString().split('\n').filter(Boolean)) lines.push(JSON.parse(line) as Record<string, unknown>);
      done();
    },
  });
  const observed: { path: string; status: number }[] = [];
  const app = express();
  const observers = [(req: express.Request, res: express.Response) => void observed.push({ path: req.path, status: res.statusCode }), ...(extraObserver ? [extraObserver] : [])];
  app.use(requestLogging(createLogger('info', sink), observers));
  app.get('/ok', (_req, res) => void res.json({ ok: true }));
  app.get('/boom', (_req, res) => void res.status(500).json({ detail: 'boom' }));
  // answers only after the client has given up
  app.get('/slow', (_req, res) => void setTimeout(() => res.json({ late: true }), 300));
  const server = app.listen(0, '127.0.0.1');
  await new Promise((resolve) => server.once('listening', resolve));
  const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return { base, lines, observed, close: () => new Promise((resolve) => server.close(resolve)) };
}

const until = async (condition: () => boolean) => {
  for (let i = 0; i < 100 && !condition(); i++) await new Promise((resolve) => setTimeout(resolve, 10));
};

describe('requestLogging', () => {
  it('logs each request once, under the id it answers with, without the query string, and tells the observers', async () => {
    const app = await loggedApp();
    try {
      const first = await fetch(`${app.base}/ok?key=secret`);
      const second = await fetch(`${app.base}/boom`, { headers: { 'X-Request-Id': 'client-id-1' } });
      await until(() => app.lines.length >= 2);
      expect(second.headers.get('x-request-id')).toBe('client-id-1');
      expect(app.lines).toEqual([
        expect.objectContaining({ msg: 'request completed', level: 30, req: { id: first.headers.get('x-request-id'), method: 'GET', path: '/ok' }, res: { status: 200 } }),
        expect.objectContaining({ msg: 'request errored', level: 50, req: { id: 'client-id-1', method: 'GET', path: '/boom' }, res: { status: 500 } }),
      ]);
      expect(JSON.stringify(app.lines)).not.toContain('secret');
      expect(app.observed).toEqual([
        { path: '/ok', status: 200 },
        { path: '/boom', status: 500 },
      ]);
    } finally {
      await app.close();
    }
  });

  it('logs a request whose client left before the answer as aborted, and the observers do not count it', async () => {
    const app = await loggedApp();
    try {
      await new Promise<void>((resolve) => {
        const request = http.get(`${app.base}/slow`);
        request.on('error', () => resolve());
        setTimeout(() => request.destroy(), 50);
      });
      await until(() => app.lines.length >= 1);
      expect(app.lines).toEqual([expect.objectContaining({ msg: 'request aborted', req: expect.objectContaining({ path: '/slow' }) })]);
      expect(app.observed).toEqual([]);
    } finally {
      await app.close();
    }
  });

  it('logs the request and the fault of an observer that throws, and the server goes on answering', async () => {
    const app = await loggedApp(() => {
      throw new Error('metrics broke');
    });
    try {
      expect((await fetch(`${app.base}/ok`)).status).toBe(200);
      expect((await fetch(`${app.base}/ok`)).status).toBe(200);
      await until(() => app.lines.length >= 4);
      expect(app.lines.map((line) => line.msg)).toEqual(['request completed', 'request observer failed', 'request completed', 'request observer failed']);
      expect(app.lines[1]).toMatchObject({ level: 50, err: expect.objectContaining({ message: 'metrics broke' }) });
      expect(app.observed).toHaveLength(2);
    } finally {
      await app.close();
    }
  });
});

describe('loggedPath', () => {
  it('puts :token in place of the secret in an email link, a calendar address and a feed address, and leaves other paths alone', () => {
    expect(loggedPath('/account/verify-email/abcDEF123')).toBe('/account/verify-email/:token');
    expect(loggedPath('/email/unsubscribe/abc')).toBe('/email/unsubscribe/:token');
    expect(loggedPath('/api/v1/calendar/Zx9_secret.ics')).toBe('/api/v1/calendar/:token.ics');
    expect(loggedPath('/api/v1/feeds/Zx9_secret.atom')).toBe('/api/v1/feeds/:token.atom');
    expect(loggedPath('/api/v1/feeds/Zx9_secret')).toBe('/api/v1/feeds/:token');
    expect(loggedPath('/api/v1/predict/2900')).toBe('/api/v1/predict/2900');
  });
});
