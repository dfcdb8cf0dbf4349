/**
 * The dashboard's side of an in-process test app: its GraphQL requests as the browser sends them
 * (same origin, the session cookie), and an account signed up and logged in through the
 * dashboard's own documents, so a test calls what the dashboard calls.
 */
import * as WEB from '../../web/src/operations';
import type { Tier } from '../../src/db/entities/account.entity';
import type { TestApp } from './test-app';

export const DASHBOARD_ORIGIN = 'http://dashboard.test';
export const DASHBOARD_PASSWORD = 'correct horse battery';

/** A POST to /graphql from the dashboard's own page, with the cookie when one is given. */
export function dashboardGql(t: TestApp, query: string, variables: Record<string, unknown> = {}, { cookie }: { cookie?: string } = {}) {
  const req = t.http().post('/graphql').set('host', 'dashboard.test').set('origin', DASHBOARD_ORIGIN).set('content-type', 'application/json');
  if (cookie) req.set('cookie', cookie);
  return req.send({ query, variables });
}

/** Signs `email` up and logs in through the dashboard's mutations; the tier set, and an API key for REST when the tier has one. */
export async function dashboardUser(t: TestApp, email: string, tier: Tier = 'pilot'): Promise<{ email: string; cookie: string; key: string | null }> {
  expect((await dashboardGql(t, WEB.SIGN_UP, { input: { email, password: DASHBOARD_PASSWORD } })).body).toEqual({ data: { signUp: true } });
  const logIn = await dashboardGql(t, WEB.LOG_IN, { input: { email, password: DASHBOARD_PASSWORD } });
  const cookie = ((logIn.headers['set-cookie'] as unknown as string[]) ?? []).find((c) => c.startsWith('bp_session='))!.split(';')[0];
  await t.services.accounts.setTier(email, tier);
  const key = tier === 'free' ? null : (await t.services.apiKeys.create(email)).api_key;
  return { email, cookie, key };
}

/** Marks the address verified, as opening its link does (tests/e2e/email-verification.test.ts covers the link itself). */
export async function markVerified(t: TestApp, email: string): Promise<void> {
  await t.db.dataSource.query(`UPDATE account SET email_status = 'VERIFIED' WHERE email = $1`, [email]);
}
