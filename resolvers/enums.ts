import { registerEnumType } from 'type-graphql';

// Enum values are the strings the database stores, so entities pass through unchanged.

export enum BillKind {
  GOVERNMENT = 'government',
  PMB_BALLOT = 'pmb_ballot',
  PMB_TEN_MINUTE_RULE = 'pmb_ten_minute_rule',
  PMB_PRESENTATION = 'pmb_presentation',
  PMB_LORDS = 'pmb_lords',
  PRIVATE = 'private',
  HYBRID = 'hybrid',
  CONSOLIDATION = 'consolidation',
}

export enum House {
  COMMONS = 'Commons',
  LORDS = 'Lords',
  UNASSIGNED = 'Unassigned',
}

export enum BillOutcome {
  ROYAL_ASSENT = 'royal_assent',
  WITHDRAWN = 'withdrawn',
  FELL = 'fell',
  PENDING = 'pending',
}

export enum StagePhase {
  FIRST_HOUSE = 'first_house',
  SECOND_HOUSE = 'second_house',
  PING_PONG = 'ping_pong',
  ROYAL_ASSENT = 'royal_assent',
}

export enum Tier {
  FREE = 'free',
  PILOT = 'pilot',
  PRO = 'pro',
}

registerEnumType(BillKind, {
  name: 'BillKind',
  description: 'Normalised bill type: government, the kinds of Private Members’ Bill, private, hybrid, consolidation',
});
registerEnumType(House, { name: 'House', description: 'House of Parliament (Royal Assent and some private-bill steps are Unassigned)' });
registerEnumType(BillOutcome, {
  name: 'BillOutcome',
  description: 'What had become of the bill when the data was read: PENDING while still before Parliament',
});
registerEnumType(StagePhase, { name: 'StagePhase', description: 'Position of a stage in the passage of the bill' });
registerEnumType(Tier, { name: 'Tier', description: 'Subscription tier' });
