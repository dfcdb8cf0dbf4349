import type { QuotaKind } from './tier-limits';

/** A field's place in a GraphQL response: response keys (aliases) and list indexes. */
export type ResponsePath = readonly (string | number)[];

interface Charge {
  kind: QuotaKind;
  units: number;
  /** where in the response what was charged appears; it reached the response if any of them holds a value */
  paths: ResponsePath[];
}

/**
 * What a request took from its quotas for things its response shows (predictions, a batch), and
 * where in the response each appears. When the response is known, whatever did not reach it (its
 * request failed as a whole, or its field was nulled by an error beside it) is given back, so what
 * is charged equals what the response shows. API calls are not in it: a call is charged when it starts.
 */
export class ChargeLedger {
  private readonly charges = new Map<string, Charge>();

  /** Units taken under `id` (one id per thing shown: a bill's nowcast on a date, a batch field). */
  charged(id: string, kind: QuotaKind, units: number, path?: ResponsePath): void {
    if (units <= 0) return;
    const known = this.charges.get(id);
    if (known) known.units += units;
    else this.charges.set(id, { kind, units, paths: [] });
    if (path) this.shownAt(id, path);
  }

  /** Another place in the response where the thing charged under `id` appears. */
  shownAt(id: string, path: ResponsePath): void {
    this.charges.get(id)?.paths.push(path);
  }

  /** Drops a charge the caller gives back itself. */
  forget(id: string): void {
    this.charges.delete(id);
  }

  /** Units per kind that never reached the response, and forgets them; `data` null means nothing did. */
  notShown(data: Record<string, unknown> | null | undefined): Map<QuotaKind, number> {
    const refunds = new Map<QuotaKind, number>();
    for (const [id, charge] of this.charges) {
      if (data && charge.paths.some((path) => valueAt(data, path) != null)) continue;
      refunds.set(charge.kind, (refunds.get(charge.kind) ?? 0) + charge.units);
      this.charges.delete(id);
    }
    return refunds;
  }
}

function valueAt(data: unknown, path: ResponsePath): unknown {
  let value = data;
  for (const key of path) {
    if (value == null || typeof value !== 'object') return undefined;
    value = (value as Record<string | number, unknown>)[key];
  }
  return value;
}
