/**
 * Sponsors' parties on a bill's introduction day, from the Members API's dated party history
 * (`GET /api/Members/History?ids=…`), as the snapshot took them. The Bills API gives only a
 * member's party at the time of the request: a member who changed party (or lost the whip) since
 * would make a bill read differently live than in training, where the party is the one on the
 * introduction day.
 */
import type { BillsApiClient } from './bills-api-client';

export const DEFAULT_MEMBERS_API_URL = 'https://members-api.parliament.uk/api';

/** One spell of `partyHistory`: the party and the days it began and ended (null while it lasts). */
export interface ApiPartySpell {
  party: { name: string | null } | null;
  startDate: string | null;
  endDate: string | null;
}

/** An item of the `/Members/History` response. */
export interface ApiMemberHistory {
  value: { id: number; partyHistory: ApiPartySpell[] | null } | null;
}

/** Members asked for in one request: the query string stays short. */
const IDS_PER_REQUEST = 20;

/**
 * The party of the spell that covers `date` (YYYY-MM-DD), both ends inclusive; null when none does
 * (no affiliation then). On the day of a change two spells cover it, the old one ending and the new
 * one beginning: the new one counts, whatever order the API lists them in.
 */
export function partyOn(spells: readonly ApiPartySpell[], date: string): string | null {
  let covering: { start: string | null; party: string | null } | null = null;
  for (const s of spells) {
    const start = s.startDate?.slice(0, 10) ?? null;
    const end = s.endDate?.slice(0, 10) ?? null;
    if ((start === null || start <= date) && (end === null || date <= end) && (covering === null || (start ?? '') > (covering.start ?? ''))) covering = { start, party: s.party?.name ?? null };
  }
  return covering?.party ?? null;
}

/**
 * After a failed read, how long the Members API is left alone: a sync then takes the parties the
 * Bills API shows, rather than waiting on a dead API for every bill.
 */
export const MEMBERS_API_PAUSE_MS = 10 * 60_000;

/** The Members API client's own patience: a few seconds and one retry (a Retry-After of at most 5 s), not the Bills API's minutes. */
export const MEMBERS_API_CLIENT = { maxRetries: 1, timeoutMs: 5_000, maxRetryAfterMs: 5_000 };

/** The party histories of the members read so far, kept for the source's lifetime (they change only by growing). */
export class MemberPartyHistory {
  private readonly spells = new Map<number, readonly ApiPartySpell[]>();
  /** the request under way or done for each member: bills read side by side often share a sponsor */
  private readonly requested = new Map<number, Promise<void>>();

  /** until when (ms) no request is made, after one failed */
  private pausedUntil = 0;

  constructor(
    private readonly client: BillsApiClient,
    private readonly now: () => number = Date.now,
  ) {}

  /**
   * Reads the histories of the members not yet asked for; never throws. The parties are a
   * refinement the sync can do without, so a Members API down or answering nonsense stops neither
   * the sync nor a first start: a request that fails after the client's retries leaves its members
   * unknown (their bills take the Bills API's party), pauses the reads for MEMBERS_API_PAUSE_MS, and
   * its members are asked again after. A member the API does not list has no history.
   */
  async load(memberIds: Iterable<number>): Promise<void> {
    const ids = [...new Set(memberIds)];
    // paused: no new request, but the answers already on their way are waited for, so a member has one party in a sync
    if (this.now() < this.pausedUntil) return void (await Promise.all(ids.map((id) => this.requested.get(id))));
    const missing = ids.filter((id) => !this.requested.has(id));
    for (let i = 0; i < missing.length; i += IDS_PER_REQUEST) {
      const chunk = missing.slice(i, i + IDS_PER_REQUEST);
      const request = this.client.getJson<ApiMemberHistory[] | null>('/Members/History', { ids: chunk }).then((items) => {
        if (items !== null && !Array.isArray(items)) throw new Error('malformed /Members/History: not a list');
        for (const id of chunk) this.spells.set(id, []);
        for (const item of items ?? []) if (item?.value && typeof item.value.id === 'number') this.spells.set(item.value.id, item.value.partyHistory ?? []);
      });
      const settled = request.catch(() => {
        this.pausedUntil = this.now() + MEMBERS_API_PAUSE_MS;
        chunk.forEach((id) => this.requested.delete(id));
      });
      for (const id of chunk) this.requested.set(id, settled);
    }
    await Promise.all(ids.map((id) => this.requested.get(id)));
  }

  /** The member's party on `date` (from load()), or undefined for a member never loaded. */
  on(memberId: number, date: string | null): string | null | undefined {
    const spells = this.spells.get(memberId);
    if (!spells) return undefined;
    return date ? partyOn(spells, date) : null;
  }
}
