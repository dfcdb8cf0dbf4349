import { Field, Int, ObjectType } from 'type-graphql';
import { DateScalar } from './date.scalar';
import { BillKind, BillOutcome, House, StagePhase } from './enums';

// Field names follow the entities' property names, so resolvers return entities as they are.

@ObjectType('ParliamentarySession', { description: 'A session of the UK Parliament (Bills API session id)' })
export class ParliamentarySessionType {
  @Field(() => Int)
  id: number;

  @Field(() => String, { description: 'e.g. "2017-19"' })
  name: string;

  @Field(() => DateScalar, { nullable: true, description: 'null while the session is running' })
  endDate: string | null;

  @Field(() => DateScalar, { nullable: true, description: "the session's first day: its official start (State Opening or first sitting) where known, else the first sitting seen in the data" })
  firstSittingDate: string | null;

  @Field(() => DateScalar, { nullable: true, description: 'last sitting date seen in the data' })
  lastSittingDate: string | null;
}

@ObjectType('Sponsor', { simpleResolvers: true })
export class SponsorType {
  @Field(() => Int, { nullable: true, description: 'UK Parliament Members API id' })
  memberId: number | null;

  @Field(() => String)
  name: string;

  @Field(() => String, { nullable: true, description: 'party on the day the bill was introduced' })
  partyAtIntroduction: string | null;

  @Field(() => String, { nullable: true })
  houseAtIntroduction: string | null;
}

@ObjectType('Stage', { description: 'A stage of a bill and the days it sat' })
export class StageType {
  @Field(() => Int, { description: 'Bills API bill-stage id' })
  id: number;

  @Field(() => Int, { description: 'order in the bill’s passage, 1 = first' })
  seq: number;

  @Field(() => Int, { description: 'Bills API stage-type id' })
  stageId: number;

  @Field(() => String, { description: 'normalised stage, e.g. first_reading, second_reading, committee, report, third_reading, consideration_of_amendments, royal_assent' })
  stage: string;

  @Field(() => String, { description: 'the API’s name for the stage, e.g. "Committee of the whole House"' })
  description: string;

  @Field(() => String, { nullable: true, name: 'abbreviation' })
  abbr: string | null;

  @Field(() => House)
  house: House;

  @Field(() => StagePhase, { nullable: true })
  phase: StagePhase | null;

  @Field(() => Int, { nullable: true })
  sessionId: number | null;

  @Field(() => [DateScalar], { name: 'dates', description: 'every sitting date, in order; empty when the stage never sat' })
  sittingDates: string[];

  @Field(() => [DateScalar], { description: 'dates recorded after the session ended, which never happened (PMB set-down Fridays)' })
  datesAfterSessionEnd: string[];
}

@ObjectType('ScheduledSitting', { description: 'A sitting of a stage set down for a day after today, as the service first saw it' })
export class ScheduledSittingType {
  @Field(() => String, { description: 'normalised stage, e.g. second_reading' })
  stage: string;

  @Field(() => House)
  house: House;

  @Field(() => DateScalar, { name: 'date', description: 'the day the stage is set down to sit' })
  scheduledFor: string;

  @Field(() => DateScalar, {
    name: 'firstSeen',
    description: 'the service’s day when a sync first saw this date: it was announced by then (the Bills API keeps no history of announcements)',
  })
  firstSeenDay: string;
}

@ObjectType('Division', { description: 'A House of Commons division on the bill (The Public Whip, to July 2018)', simpleResolvers: true })
export class DivisionType {
  @Field(() => House)
  house: House;

  @Field(() => DateScalar)
  date: string;

  @Field(() => Int, { description: 'the division’s number on its day' })
  number: number;

  @Field(() => String, { description: 'title written by The Public Whip (publicwhip.org.uk)' })
  title: string;

  @Field(() => Int, { description: 'ayes including tellers' })
  ayes: number;

  @Field(() => Int, { description: 'noes including tellers' })
  noes: number;

  @Field(() => String, { nullable: true })
  stage: string | null;
}

@ObjectType('Bill', { description: 'A UK Parliament bill (Bills API bill id)' })
export class BillType {
  @Field(() => Int)
  id: number;

  @Field(() => String, { description: 'short title' })
  title: string;

  @Field(() => String, { nullable: true })
  longTitle: string | null;

  @Field(() => String, { nullable: true, description: 'HTML, as the Bills API gives it' })
  summary: string | null;

  @Field(() => String, { description: 'the Bills API’s type name' })
  billType: string;

  @Field(() => String, { description: 'Public or Private' })
  category: string;

  @Field(() => BillKind)
  kind: BillKind;

  @Field(() => House)
  originatingHouse: House;

  @Field(() => Int)
  introducedSessionId: number;

  @Field(() => [Int], { description: 'every session the bill existed in (more than one: carried over)' })
  sessionIds: number[];

  @Field(() => DateScalar, { nullable: true })
  introducedDate: string | null;

  @Field(() => BillOutcome)
  outcome: BillOutcome;

  @Field(() => Boolean)
  isAct: boolean;

  @Field(() => DateScalar, { nullable: true })
  royalAssentDate: string | null;

  @Field(() => DateScalar, { nullable: true })
  withdrawnDate: string | null;

  @Field(() => [String], { description: 'sponsoring organisations where no member is named' })
  sponsorOrganisations: string[];
}

@ObjectType('PageInfo')
export class PageInfoType {
  @Field(() => Boolean)
  hasNextPage: boolean;

  @Field(() => String, { nullable: true, description: 'pass as `after` to get the next page' })
  endCursor: string | null;
}

@ObjectType('BillEdge')
export class BillEdgeType {
  @Field(() => String)
  cursor: string;

  @Field(() => BillType)
  node: BillType;
}

@ObjectType('BillConnection', { description: 'A page of bills, in the order asked for' })
export class BillConnectionType {
  @Field(() => [BillEdgeType])
  edges: BillEdgeType[];

  @Field(() => [BillType], { description: 'the bills of the edges, for clients that do not need cursors' })
  nodes: BillType[];

  @Field(() => PageInfoType)
  pageInfo: PageInfoType;

  @Field(() => Int, { description: 'bills matching the filter, across all pages' })
  totalCount: number;
}
