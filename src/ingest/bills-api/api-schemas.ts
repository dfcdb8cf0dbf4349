import { z } from 'zod';

/**
 * The least a Bills API response must hold for the normaliser to make a true record of it. Fields
 * not named here pass through untouched (the types in api-types.ts describe them); a response
 * that fails is malformed: never normalised, never stored.
 */
const id = z.number().int().positive();
const nullableString = z.string().nullable().optional();

const stageSummary = z.looseObject({
  id: z.number().int(),
  stageId: z.number().int(),
  sortOrder: z.number(),
  sessionId: z.number().int().nullable().optional(),
  house: nullableString,
  description: nullableString,
  stageSittings: z.array(z.looseObject({ date: nullableString })).nullable().optional(),
});

const billSummary = z.looseObject({
  billId: id,
  shortTitle: nullableString,
  lastUpdate: z.string(),
  billTypeId: z.number().int(),
  introducedSessionId: z.number().int(),
  includedSessionIds: z.array(z.number().int()).nullable().optional(),
  isAct: z.boolean(),
  isDefeated: z.boolean(),
  billWithdrawn: nullableString,
  originatingHouse: nullableString,
  currentStage: stageSummary.nullable().optional(),
});

const bill = billSummary.extend({
  longTitle: nullableString,
  summary: nullableString,
  sponsors: z.array(z.looseObject({ sortOrder: z.number().optional() })).nullable().optional(),
});

export const listPageSchema = z.looseObject({ items: z.array(billSummary), totalResults: z.number().int().nonnegative() });
export const billSchema = bill;
export const stagesSchema = z.array(stageSummary);

/** A response that does not have the shape the source relies on. */
export class MalformedResponseError extends Error {
  constructor(what: string, error: z.ZodError) {
    const first = error.issues[0];
    super(`malformed ${what}: ${first ? `${first.path.join('.') || '(root)'} ${first.message}` : 'unexpected shape'}`);
    this.name = 'MalformedResponseError';
  }
}

/** Throws MalformedResponseError naming the first problem; the value itself is used as it came (its type is api-types.ts's). */
export function assertWellFormed(schema: z.ZodType, value: unknown, what: string): void {
  const parsed = schema.safeParse(value);
  if (!parsed.success) throw new MalformedResponseError(what, parsed.error);
}
