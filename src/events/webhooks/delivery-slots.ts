import type { AttemptOutcome } from './send';

/**
 * The attempts one delivery worker has under way, by endpoint and by account, and how many each may
 * have: an endpoint `perEndpoint`, or one while its last attempt timed out (until it answers again,
 * so a receiver that never answers holds one slot, not several, for each timeout); an account
 * `perAccount`, so the endpoints of one account, however slow, leave the other slots to the rest.
 * In memory: each instance counts its own attempts, and learns slowness from its own attempts.
 */
export class DeliverySlots {
  private readonly byEndpoint = new Map<number, number>();
  private readonly byAccount = new Map<number, number>();
  /** endpoints whose last attempt (here) timed out */
  private readonly slow = new Set<number>();

  constructor(
    private readonly perEndpoint: number,
    private readonly perAccount: number,
  ) {}

  private endpointLimit(endpointId: number): number {
    return this.slow.has(endpointId) ? 1 : this.perEndpoint;
  }

  /** Whether one more attempt of this endpoint may start now. */
  free(endpointId: number, accountId: number): boolean {
    return (this.byEndpoint.get(endpointId) ?? 0) < this.endpointLimit(endpointId) && (this.byAccount.get(accountId) ?? 0) < this.perAccount;
  }

  take(endpointId: number, accountId: number): void {
    this.byEndpoint.set(endpointId, (this.byEndpoint.get(endpointId) ?? 0) + 1);
    this.byAccount.set(accountId, (this.byAccount.get(accountId) ?? 0) + 1);
  }

  release(endpointId: number, accountId: number): void {
    const decrement = (map: Map<number, number>, key: number) => {
      const left = (map.get(key) ?? 1) - 1;
      if (left > 0) map.set(key, left);
      else map.delete(key);
    };
    decrement(this.byEndpoint, endpointId);
    decrement(this.byAccount, accountId);
  }

  /** A timeout makes the endpoint slow; any answer (a 2xx or not) makes it well again; other failures say nothing about its pace. */
  noteOutcome(endpointId: number, outcome: AttemptOutcome): void {
    if (outcome === 'timeout') this.slow.add(endpointId);
    else if (outcome === 'delivered' || outcome === 'http_error') this.slow.delete(endpointId);
  }

  /**
   * The claim's view of the slots (CLAIM_DUE's parameters): endpoints and accounts with none free,
   * and those with fewer free than the default, with how many.
   */
  claimLimits() {
    const fullEndpoints: number[] = [];
    const endpoints: number[] = [];
    const endpointFree: number[] = [];
    for (const id of new Set([...this.byEndpoint.keys(), ...this.slow])) {
      const free = this.endpointLimit(id) - (this.byEndpoint.get(id) ?? 0);
      if (free <= 0) fullEndpoints.push(id);
      else if (free < this.perEndpoint) {
        endpoints.push(id);
        endpointFree.push(free);
      }
    }
    const fullAccounts: number[] = [];
    const accounts: number[] = [];
    const accountFree: number[] = [];
    for (const [id, busy] of this.byAccount) {
      if (busy >= this.perAccount) fullAccounts.push(id);
      else {
        accounts.push(id);
        accountFree.push(this.perAccount - busy);
      }
    }
    return { fullEndpoints, endpoints, endpointFree, fullAccounts, accounts, accountFree };
  }
}
