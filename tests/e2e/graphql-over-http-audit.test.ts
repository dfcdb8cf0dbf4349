import type { AddressInfo } from 'node:net';
import { serverAudits } from 'graphql-http';
import { startTestApp, type TestApp } from '../support/test-app';

// The GraphQL over HTTP specification's conformance audits (graphql-http's serverAudits: every MUST,
// SHOULD and MAY), against /graphql of a real server on a port, without an API key, as any client
// first meets it.

let t: TestApp;
let url: string;
beforeAll(async () => {
  t = await startTestApp();
  await new Promise<void>((resolve) => t.app.httpServer.listen(0, '127.0.0.1', resolve));
  url = `http://127.0.0.1:${(t.app.httpServer.address() as AddressInfo).port}/graphql`;
});
afterAll(() => t.close());

/**
 * A GET carries `apollo-require-preflight`, as docs/api.md asks of every client that uses GET: CSRF
 * prevention, kept on purpose. A browser sends a GET (or a form's POST) from any page with the
 * user's cookies and without a preflight; a header no form can set proves a script of a page CORS
 * admitted. The audits send none, so without it their GETs are refused (the last test).
 */
const withPreflightHeader: typeof fetch = (input, init = {}) =>
  fetch(input, (init.method ?? 'GET') === 'GET' ? { ...init, headers: { ...(init.headers as Record<string, string> | undefined), 'apollo-require-preflight': 'true' } } : init);

const audits = serverAudits({ url: () => url, fetchFn: withPreflightHeader });

it.each(audits.map((audit) => [`${audit.id} ${audit.name}`, audit] as const))('%s', async (_name, audit) => {
  const result = await audit.fn();
  if (result.status === 'ok') return;
  const body = await result.response.text();
  throw new Error(`${result.reason}\nstatus ${result.response.status}, content-type ${result.response.headers.get('content-type')}\n${body}`);
});

it('refuses a GET without a header a form cannot send (CSRF prevention): 400 BAD_USER_INPUT; with it, answers as docs/api.md shows', async () => {
  const query = `${url}?query=${encodeURIComponent('{serviceStatus{ready}}')}`;
  const refused = await fetch(query);
  expect(refused.status).toBe(400);
  expect(((await refused.json()) as { errors: unknown }).errors).toEqual([expect.objectContaining({ message: expect.stringMatching(/Cross-Site Request Forgery/), extensions: { code: 'BAD_USER_INPUT' } })]);
  const answered = await fetch(query, { headers: { 'apollo-require-preflight': 'true' } });
  expect(answered.status).toBe(200);
  expect(await answered.json()).toEqual({ data: { serviceStatus: { ready: expect.any(Boolean) } } });
});
