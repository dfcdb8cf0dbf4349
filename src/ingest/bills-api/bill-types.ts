import type { BillKind, House } from '../bill-record';
import type { ApiBillType } from './api-types';

/** billTypeId → billKind, as used throughout the snapshot's bills.jsonl. */
export const BILL_KIND_BY_TYPE_ID: Readonly<Record<number, BillKind>> = {
  1: 'government',
  2: 'pmb_lords',
  3: 'consolidation',
  4: 'hybrid',
  5: 'pmb_ten_minute_rule',
  6: 'private',
  7: 'pmb_ballot',
  8: 'pmb_presentation',
};

/** Used when `/BillTypes` is unavailable or lacks an id; names and categories as in the snapshot. */
export const FALLBACK_BILL_TYPES: readonly ApiBillType[] = [
  { id: 1, category: 'Public', name: 'Government Bill' },
  { id: 2, category: 'Public', name: "Private Members' Bill (Starting in the House of Lords)" },
  { id: 3, category: 'Public', name: 'Consolidation Bill' },
  { id: 4, category: 'Private', name: 'Hybrid Bill' },
  { id: 5, category: 'Public', name: "Private Members' Bill (under the Ten Minute Rule)" },
  { id: 6, category: 'Private', name: 'Private Bill' },
  { id: 7, category: 'Public', name: "Private Members' Bill (Ballot Bill)" },
  { id: 8, category: 'Public', name: "Private Members' Bill (Presentation Bill)" },
];

/**
 * billKind for a bill type. Ids 1–8 are fixed; for an id the API adds later the type's name and
 * category decide, and a bill type nothing fits is an error rather than a silent guess.
 */
export function billKindFor(billType: ApiBillType, originatingHouse: House): BillKind {
  const byId = BILL_KIND_BY_TYPE_ID[billType.id];
  if (byId) return byId;
  const name = (billType.name ?? '').toLowerCase();
  if (name.includes('hybrid') || billType.category === 'Hybrid') return 'hybrid';
  if (name.includes('consolidation')) return 'consolidation';
  if (name.includes('government')) return 'government';
  if (name.includes('private members')) {
    if (name.includes('ten minute')) return 'pmb_ten_minute_rule';
    if (name.includes('ballot')) return 'pmb_ballot';
    if (name.includes('presentation')) return 'pmb_presentation';
    if (name.includes('lords') || originatingHouse === 'Lords') return 'pmb_lords';
  }
  if (billType.category === 'Private') return 'private';
  throw new Error(`Bills API bill type ${billType.id} (${billType.name ?? 'unnamed'}, ${billType.category}) has no billKind mapping`);
}
