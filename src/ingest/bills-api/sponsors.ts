import type { SponsorRecord } from '../bill-record';
import type { ApiSponsor } from './api-types';

export interface NormalisedSponsors {
  sponsors: SponsorRecord[];
  sponsorOrganisations: string[];
}

/**
 * A member's party on the bill's introduction day: a string or null (no affiliation then) when known,
 * undefined when not (the member's party as the Bills API shows it now is taken then).
 */
export type PartyAtIntroduction = (memberId: number) => string | null | undefined;

/** Members become sponsors; an organisation counts only where the API gives no member (as in the data). */
export function normaliseSponsors(apiSponsors: readonly ApiSponsor[] | null | undefined, partyAtIntroduction: PartyAtIntroduction = () => undefined): NormalisedSponsors {
  const ordered = [...(apiSponsors ?? [])].sort((a, b) => (a.sortOrder ?? 0) - (b.sortOrder ?? 0));
  const sponsors: SponsorRecord[] = [];
  const sponsorOrganisations: string[] = [];
  for (const s of ordered) {
    if (s.member && (s.member.name || s.member.memberId)) {
      const memberId = typeof s.member.memberId === 'number' ? s.member.memberId : null;
      const dated = memberId === null ? undefined : partyAtIntroduction(memberId);
      sponsors.push({
        memberId,
        name: s.member.name ?? '',
        partyAtIntroduction: dated === undefined ? (s.member.party ?? null) : dated,
        houseAtIntroduction: s.member.house && s.member.house !== 'All' ? s.member.house : null,
      });
    } else if (s.organisation?.name) {
      sponsorOrganisations.push(s.organisation.name);
    }
  }
  return { sponsors, sponsorOrganisations };
}

/** Governing parties by date, last day inclusive (the data README's rule). */
const GOVERNMENTS: ReadonlyArray<{ until: string | null; parties: readonly string[] }> = [
  { until: '2010-05-11', parties: ['Labour'] },
  { until: '2015-05-07', parties: ['Conservative', 'Liberal Democrat'] },
  { until: '2024-07-04', parties: ['Conservative'] },
  { until: null, parties: ['Labour'] },
];

/**
 * Whether the party was in government on the date. "Labour (Co-op)" counts as Labour. As in the
 * snapshot, an unknown party or date gives false; only "no sponsor at all" is null (decided by the caller).
 */
export function partyInGovernment(party: string | null, date: string | null): boolean {
  if (!party || !date) return false;
  const base = party.replace(/\s*\(Co-op\)\s*$/i, '').trim();
  const government = GOVERNMENTS.find((g) => g.until === null || date <= g.until)!;
  return government.parties.includes(base);
}
