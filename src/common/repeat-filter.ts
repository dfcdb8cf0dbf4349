import { LRUCache } from 'lru-cache';

/**
 * Tells a key that comes again from one seen once: a cache of what clients send keeps only what
 * repeats, so that a stream of unique inputs (hostile or not) leaves nothing behind but these keys.
 * Remembers at most `max` first sightings, the oldest forgotten first.
 */
export class RepeatFilter {
  private readonly seenOnce: LRUCache<string, true>;

  constructor(max: number) {
    this.seenOnce = new LRUCache({ max });
  }

  /** true when `key` was seen before (and forgets it: the caller keeps it now); else remembers it and answers false */
  repeated(key: string): boolean {
    if (this.seenOnce.delete(key)) return true;
    this.seenOnce.set(key, true);
    return false;
  }

  /** Puts `key` back among those seen once: the caller it was let through to did not keep it after all. */
  putBack(key: string): void {
    this.seenOnce.set(key, true);
  }
}
