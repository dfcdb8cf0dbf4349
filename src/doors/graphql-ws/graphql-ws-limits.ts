/**
 * What one account may hold open on the WebSocket door, far above what a client needs (one
 * connection carries every subscription it wants) and low enough that one tenant cannot hold the
 * server's memory and file descriptors: a frame's size (as the HTTP body limit), subscriptions per
 * connection, open connections per account on this instance.
 */
export const MAX_FRAME_BYTES = 100 * 1024;
export const MAX_SUBSCRIPTIONS_PER_CONNECTION = 100;
export const MAX_CONNECTIONS_PER_ACCOUNT = 20;

export const SUBSCRIPTION_LIMIT_DETAIL = `Subscription limit reached: at most ${MAX_SUBSCRIPTIONS_PER_CONNECTION} subscriptions on one connection`;
export const CONNECTION_LIMIT_DETAIL = `Connection limit reached: at most ${MAX_CONNECTIONS_PER_ACCOUNT} open WebSocket connections per account`;

/** Open connections by account: a place is taken when a connection is admitted and given back when it closes. */
export class ConnectionCount {
  private readonly open = new Map<number, number>();

  constructor(private readonly limit = MAX_CONNECTIONS_PER_ACCOUNT) {}

  /** Takes a place for the account; false (nothing taken) when it holds the limit already. */
  take(accountId: number): boolean {
    const held = this.open.get(accountId) ?? 0;
    if (held >= this.limit) return false;
    this.open.set(accountId, held + 1);
    return true;
  }

  give(accountId: number): void {
    const held = (this.open.get(accountId) ?? 0) - 1;
    if (held > 0) this.open.set(accountId, held);
    else this.open.delete(accountId);
  }
}
