/**
 * What the service still waits for before it can answer (e.g. 'data' while the first ingest runs).
 * /readyz is 200 only when nothing is pending; a request that needs a pending part gets a 503.
 */
export class Readiness {
  private readonly pending = new Map<string, string>();

  /** `reason` is shown to clients, e.g. "bill data is loading" */
  block(part: string, reason: string): void {
    this.pending.set(part, reason);
  }

  unblock(part: string): void {
    this.pending.delete(part);
  }

  isReady(part?: string): boolean {
    return part ? !this.pending.has(part) : this.pending.size === 0;
  }

  reasons(): string[] {
    return [...this.pending.values()];
  }
}
