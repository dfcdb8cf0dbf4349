import { Extensions, type MiddlewareFn, UseMiddleware } from 'type-graphql';
import type { RequestContext } from '../src/context';
import { AppError } from '../src/errors';

/**
 * Who may call a root field. Every Query, Mutation and Subscription field declares one (a test
 * walks the schema); the rule is also visible in the field's extensions.
 * - `public`: anyone, with or without a key;
 * - `authenticated`: any user with a valid key (Free users never get this far: see src/gateway/principal.ts);
 * - `pro`: Pro tier only.
 */
export type AccessRule = 'public' | 'authenticated' | 'pro';

export interface AccessOptions {
  /** parts of the service that must be ready (see Readiness), e.g. 'data' */
  requires?: string[];
}

export const ACCESS_EXTENSION = 'access';
/** the field's extension naming the parts of the service it needs ready */
export const REQUIRES_EXTENSION = 'requires';

/** Throws the AppError that refuses a field of this rule to this request; what every root field runs first. */
export function checkAccess(rule: AccessRule, requires: readonly string[], context: RequestContext): void {
  if (rule !== 'public' && !context.user) {
    throw new AppError('UNAUTHENTICATED', 'An API key is required: send "Authorization: Bearer <key>" or "X-API-Key: <key>"');
  }
  if (rule === 'pro' && context.user?.tier !== 'pro') throw new AppError('FORBIDDEN', 'This operation needs the pro tier');
  for (const part of requires) {
    if (!context.services.readiness.isReady(part)) {
      throw new AppError('SERVICE_UNAVAILABLE', `Service unavailable: ${context.services.readiness.reasons().join('; ')}`);
    }
  }
}

/** The access check of a root field from its extensions (for a step that answers without running the field). */
export function accessOf(extensions: Readonly<Record<string, unknown>> | null | undefined): ((context: RequestContext) => void) | null {
  const rule = extensions?.[ACCESS_EXTENSION] as AccessRule | undefined;
  if (!rule) return null;
  const requires = (extensions?.[REQUIRES_EXTENSION] as string[] | undefined) ?? [];
  return (context) => checkAccess(rule, requires, context);
}

function guard(rule: AccessRule, requires: string[]): MiddlewareFn<RequestContext> {
  return async ({ context }, next) => {
    checkAccess(rule, requires, context);
    return next();
  };
}

export function Access(rule: AccessRule, options: AccessOptions = {}): MethodDecorator {
  return (target, propertyKey, descriptor) => {
    Extensions({ [ACCESS_EXTENSION]: rule, [REQUIRES_EXTENSION]: options.requires ?? [] })(target, propertyKey, descriptor);
    UseMiddleware(guard(rule, options.requires ?? []))(target, propertyKey, descriptor);
  };
}
