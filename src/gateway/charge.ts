import { type DocumentNode, Kind, type OperationDefinitionNode, type SelectionSetNode } from 'graphql';
import type { BurstLimiter } from '../quota/burst-limit';
import { fragmentsByName } from './fragments';
import type { RequestQuota } from '../quota/request-quota';
import type { Principal } from './principal';

/**
 * Charging, step 3 of the pipeline. An API call is charged once, when an authenticated request
 * starts, whatever it holds, and never given back (a dashboard request, by session cookie, is no
 * API call). The burst limit is then applied to the
 * request as a whole, before any field runs. Predictions and batches are charged by the fields
 * that show them and settled against the response (see ChargeLedger).
 */
export async function chargeCall(quota: RequestQuota | null, principal: Principal | null): Promise<void> {
  // the website's requests are not API calls: they charge only the predictions they show
  if (principal?.credential === 'session') return;
  await quota?.chargeCall();
}

/** How many times each root field appears in the operation: aliases and fragments included. */
export function rootFieldCopies(document: DocumentNode, operation: OperationDefinitionNode): Map<string, number> {
  const fragments = fragmentsByName(document);
  const copies = new Map<string, number>();
  const count = (selectionSet: SelectionSetNode, visiting: ReadonlySet<string>) => {
    for (const selection of selectionSet.selections) {
      if (selection.kind === Kind.FIELD) {
        // __typename and introspection cost nothing
        if (!selection.name.value.startsWith('__')) copies.set(selection.name.value, (copies.get(selection.name.value) ?? 0) + 1);
      } else if (selection.kind === Kind.INLINE_FRAGMENT) count(selection.selectionSet, visiting);
      else {
        const fragment = fragments.get(selection.name.value);
        if (fragment && !visiting.has(fragment.name.value)) count(fragment.selectionSet, new Set([...visiting, fragment.name.value]));
      }
    }
  };
  count(operation.selectionSet, new Set());
  return copies;
}

/** The burst limit for a request that is about to run these root fields; anonymous requests are limited elsewhere (per address). */
export async function admitBurst(limiter: BurstLimiter, principal: Principal | null, copies: ReadonlyMap<string, number>): Promise<void> {
  if (principal) await limiter.admit(principal.accountId, copies);
}

/** After execution: gives back what the response does not deliver. */
export async function settleCharges(quota: RequestQuota | null, data: Record<string, unknown> | null | undefined): Promise<void> {
  await quota?.settleCharges(data);
}
