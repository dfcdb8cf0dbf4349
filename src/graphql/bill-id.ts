import { badInput } from '../errors';
import { isId } from '../common/ids';

/** A UK Parliament bill id from a client: a positive 32-bit integer, else 400 naming the argument. */
export function parseBillId(id: number, name = 'id'): number {
  if (!isId(id)) throw badInput(`${name} must be a positive integer (a UK Parliament bill id)`);
  return id;
}
