import { badInput } from '../src/errors';

const MAX_BILL_ID = 2_147_483_647;

/** A UK Parliament bill id from a client: a positive 32-bit integer, else 400 naming the argument. */
export function parseBillId(id: number, name = 'id'): number {
  if (!Number.isInteger(id) || id < 1 || id > MAX_BILL_ID) throw badInput(`${name} must be a positive integer (a UK Parliament bill id)`);
  return id;
}
