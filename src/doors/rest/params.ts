import type { Request } from 'express';
import { badInput } from '../../errors';
import { isCalendarDate } from '../../common/dates';
import { isId, parseIdText } from '../../common/ids';

// Validation at the REST edge: every bad parameter is a 400 whose detail names it.


function single(value: unknown, name: string): string | undefined {
  if (value === undefined) return undefined;
  if (typeof value !== 'string') throw badInput(`${name} must be given once`);
  return value;
}

export function billIdParam(value: unknown): number {
  const id = parseIdText(single(value, 'bill_id'));
  if (id === null) throw badInput('bill_id must be a positive integer (a UK Parliament bill id)');
  return id;
}

/** An optional date parameter: absent, or a calendar date (else 400 naming it). */
export function dateParam(value: unknown, name: string): string | undefined {
  if (value === undefined || value === null) return undefined;
  if (typeof value !== 'string' || !isCalendarDate(value)) throw badInput(`${name} must be a calendar date, YYYY-MM-DD`);
  return value;
}

export const referenceDateParam = (value: unknown) => dateParam(value, 'reference_date');

export function integerQuery(req: Request, name: string, fallback: number, min: number, max: number): number {
  const text = single(req.query[name], name);
  if (text === undefined) return fallback;
  if (!/^-?\d+$/.test(text) || Number(text) < min || Number(text) > max) throw badInput(`${name} must be an integer from ${min} to ${max}`);
  return Number(text);
}

export function numberQuery(req: Request, name: string, fallback: number, min: number, max: number): number {
  const text = single(req.query[name], name);
  if (text === undefined) return fallback;
  const value = Number(text);
  if (!/^-?(\d+\.?\d*|\.\d+)$/.test(text) || value < min || value > max) throw badInput(`${name} must be a number from ${min} to ${max}`);
  return value;
}

/** An optional true/false query parameter: absent is false; anything but `true` or `false` is a 400 naming it. */
export function booleanQuery(req: Request, name: string, absent = false): boolean {
  const text = single(req.query[name], name);
  if (text === undefined) return absent;
  if (text === 'false') return false;
  if (text === 'true') return true;
  throw badInput(`${name} must be true or false`);
}

export const MAX_BATCH_BILLS = 100;

export function batchBody(req: Request): { billIds: number[]; referenceDate: string | undefined } {
  if (!req.is('application/json')) throw badInput('Content-Type must be application/json');
  const body = req.body as unknown;
  if (!body || typeof body !== 'object' || Array.isArray(body)) throw badInput('The request body must be a JSON object with bill_ids');
  const { bill_ids: ids, reference_date: date } = body as { bill_ids?: unknown; reference_date?: unknown };
  if (!Array.isArray(ids) || ids.length < 1 || ids.length > MAX_BATCH_BILLS) throw badInput(`bill_ids must be an array of 1 to ${MAX_BATCH_BILLS} bill ids`);
  for (const id of ids) {
    if (!isId(id)) throw badInput('bill_ids must hold positive integers (UK Parliament bill ids)');
  }
  return { billIds: ids as number[], referenceDate: referenceDateParam(date) };
}

/** A path id: a positive integer, else 400 naming it. */
export function idParam(value: unknown, name: string): number {
  const id = parseIdText(value);
  if (id === null) throw badInput(`${name} must be a positive integer`);
  return id;
}

/** The request's JSON object body, else 400. */
export function jsonObject(req: Request): Record<string, unknown> {
  if (!req.is('application/json')) throw badInput('Content-Type must be application/json');
  const body = req.body as unknown;
  if (!body || typeof body !== 'object' || Array.isArray(body)) throw badInput('The request body must be a JSON object');
  return body as Record<string, unknown>;
}

/** What every delete answers (Stripe's convention): the id, and that it is gone. */
export const deleted = (id: number) => ({ id, deleted: true });

