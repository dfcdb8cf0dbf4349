/**
 * Sets `key` in a map that holds at most `limit` entries, in insertion order: past the limit the
 * first entry goes (a bounded cache that needs no exact LRU). With `refresh`, a key set again moves
 * to the end, so the entry least recently set goes first.
 */
export function keepWithin<K, V>(map: Map<K, V>, key: K, value: V, limit: number, { refresh = false } = {}): void {
  if (refresh) map.delete(key);
  map.set(key, value);
  if (map.size > limit) map.delete(map.keys().next().value as K);
}
