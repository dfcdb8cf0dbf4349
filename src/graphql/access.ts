import { Extensions, type MiddlewareFn, UseMiddleware } from 'type-graphql';
import type { RequestContext } from '../request/context';
import { accessExtensions, type AccessOptions, type AccessRule, checkAccess } from '../request/access-rules';

function guard(rule: AccessRule, requires: string[]): MiddlewareFn<RequestContext> {
  return async ({ context }, next) => {
    checkAccess(rule, requires, context);
    return next();
  };
}

/** Declares a root field's access rule (src/request/access-rules.ts): checked when the field runs, and written into its extensions for the gateway. */
export function Access(rule: AccessRule, options: AccessOptions = {}): MethodDecorator {
  return (target, propertyKey, descriptor) => {
    Extensions(accessExtensions(rule, options))(target, propertyKey, descriptor);
    UseMiddleware(guard(rule, options.requires ?? []))(target, propertyKey, descriptor);
  };
}
