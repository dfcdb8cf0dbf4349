import { AppError } from '../errors';
import type { RequestContext } from './context';

/**
 * Who may call a root field. Every Query, Mutation and Subscription field declares one with
 * `@Access` (src/graphql/access.ts; a test walks the schema), which writes it into the field's
 * extensions: the gateway reads it there, with the checks below, without importing a resolver.
 * - `public`: anyone, with or without a key;
 * - `authenticated`: any signed-in caller: a valid key (Free users' keys never get this far: see
 *   src/gateway/principal.ts) or a dashboard session of any tier;
 * - `pilot`: Pilot tier or above (watchlists, alerts, batches: a Free user meets it in the dashboard);
 * - `pro`: Pro tier only;
 * - `dashboard`: a dashboard session only, never an API key (the account's keys, password, log-out).
 */
export type AccessRule = 'public' | 'authenticated' | 'pilot' | 'pro' | 'dashboard';

export const ACCESS_RULES: readonly AccessRule[] = ['public', 'authenticated', 'pilot', 'pro', 'dashboard'];

export interface AccessOptions {
  /** parts of the service that must be ready (see Readiness), e.g. 'data' */
  requires?: string[];
  /**
   * The field's answer is the same for every caller its rule admits, given its arguments and the
   * serving state (model version, data state, today), and so is every field that can be selected
   * under it: none reads the caller. The GraphQL door then serves an operation of such fields to
   * an API client from the result kept for that state (Gateway.executeRequested), as REST does.
   * A field added under it that reads the caller (an account, a watchlist) must drop this.
   */
  sharedAnswer?: boolean;
}

export const ACCESS_EXTENSION = 'access';
/** the field's extension naming the parts of the service it needs ready */
export const REQUIRES_EXTENSION = 'requires';
/** the field's extension saying its answer is shared by every caller it admits (AccessOptions.sharedAnswer) */
export const SHARED_ANSWER_EXTENSION = 'sharedAnswer';

/** The extensions a root field of this rule carries, which sharesAnswer and accessOf read back. */
export function accessExtensions(rule: AccessRule, options: AccessOptions): Record<string, unknown> {
  return { [ACCESS_EXTENSION]: rule, [REQUIRES_EXTENSION]: options.requires ?? [], ...(options.sharedAnswer ? { [SHARED_ANSWER_EXTENSION]: true } : {}) };
}

/** Throws the AppError that refuses a field of this rule to this request; what every root field runs first. */
export function checkAccess(rule: AccessRule, requires: readonly string[], context: RequestContext): void {
  if (rule !== 'public' && !context.user) {
    throw new AppError('UNAUTHENTICATED', 'An API key is required: send "Authorization: Bearer <key>" or "X-API-Key: <key>"');
  }
  if (rule === 'pilot' && context.user?.tier === 'free') throw new AppError('FORBIDDEN', 'This operation needs the pilot tier or above');
  if (rule === 'pro' && context.user?.tier !== 'pro') throw new AppError('FORBIDDEN', 'This operation needs the pro tier');
  if (rule === 'dashboard' && context.user?.credential !== 'session') throw new AppError('FORBIDDEN', 'This operation is for the account dashboard: log in there (an API key cannot do it)');
  for (const part of requires) {
    if (!context.services.readiness.isReady(part)) {
      throw new AppError('SERVICE_UNAVAILABLE', `Service unavailable: ${context.services.readiness.reasons().join('; ')}`);
    }
  }
}

/** Whether a root field's answer is shared by every caller it admits, from its extensions (AccessOptions.sharedAnswer). */
export function sharesAnswer(extensions: Readonly<Record<string, unknown>> | null | undefined): boolean {
  return extensions?.[SHARED_ANSWER_EXTENSION] === true;
}

/** The access check of a root field from its extensions (for a step that answers without running the field). */
export function accessOf(extensions: Readonly<Record<string, unknown>> | null | undefined): ((context: RequestContext) => void) | null {
  const rule = extensions?.[ACCESS_EXTENSION] as AccessRule | undefined;
  if (!rule) return null;
  const requires = (extensions?.[REQUIRES_EXTENSION] as string[] | undefined) ?? [];
  return (context) => checkAccess(rule, requires, context);
}
