/**
 * The parts of the UK Parliament Bills API (v1) JSON that the live source relies on.
 * Shapes follow the API's published OpenAPI document (`/swagger/v1/swagger.json`): camelCase
 * properties, date-times without a zone (e.g. `2024-03-12T23:17:31.2836411`), houses as strings.
 * Everything the OpenAPI marks nullable is typed nullable (or optional), so the normaliser has
 * to cope with it; fields we do not use are left out.
 */

/** `House` enum; `All` only appears as a query value but is accepted defensively. */
export type ApiHouse = 'All' | 'Commons' | 'Lords' | 'Unassigned';

/** Every list endpoint wraps its items this way. */
export interface ApiSearchResult<T> {
  items: T[] | null;
  totalResults: number;
  itemsPerPage: number;
}

export interface ApiBillStageSitting {
  id: number;
  stageId: number;
  billStageId: number;
  billId: number;
  /** date-time; null for a sitting not yet scheduled */
  date: string | null;
}

/** `StageSummary`: an item of `/Bills/{id}/Stages` and a bill's `currentStage`. */
export interface ApiStageSummary {
  /** the bill-stage id (`billStageId` elsewhere) */
  id: number;
  /** the stage type id (see `/Stages`) */
  stageId: number;
  sessionId: number;
  description: string | null;
  abbreviation: string | null;
  house: ApiHouse;
  stageSittings: ApiBillStageSitting[] | null;
  sortOrder: number;
}

/** `BillSummary`: an item of `/Bills`. */
export interface ApiBillSummary {
  billId: number;
  shortTitle: string | null;
  currentHouse: ApiHouse;
  originatingHouse: ApiHouse;
  lastUpdate: string;
  /** date-time the bill was withdrawn, null if it was not */
  billWithdrawn: string | null;
  isDefeated: boolean;
  billTypeId: number;
  introducedSessionId: number;
  includedSessionIds: number[] | null;
  isAct: boolean;
  currentStage: ApiStageSummary | null;
}

export interface ApiMember {
  memberId: number;
  name: string | null;
  party: string | null;
  partyColour?: string | null;
  house: ApiHouse | null;
  memberPhoto?: string | null;
  memberPage?: string | null;
  memberFrom?: string | null;
}

export interface ApiOrganisation {
  name: string | null;
  url?: string | null;
}

export interface ApiSponsor {
  member: ApiMember | null;
  organisation: ApiOrganisation | null;
  sortOrder: number;
}

/** `Bill`: the response of `/Bills/{id}`, a superset of the summary. */
export interface ApiBill extends ApiBillSummary {
  longTitle: string | null;
  /** HTML */
  summary: string | null;
  sponsors: ApiSponsor[] | null;
}

/** `BillType`: an item of `/BillTypes`. */
export interface ApiBillType {
  id: number;
  /** `Public`, `Private` or `Hybrid` */
  category: string;
  name: string | null;
  description?: string | null;
}
