import { GraphQLError, GraphQLScalarType, Kind } from 'graphql';
import { GraphQLLocalDate } from 'graphql-scalars';
import { FIRST_YEAR, isCalendarDate, LAST_YEAR } from '../common/dates';

const refusal = (value: unknown) => new GraphQLError(`Date must be a calendar date from ${FIRST_YEAR}-01-01 to ${LAST_YEAR}-12-31, YYYY-MM-DD; got ${JSON.stringify(value)?.slice(0, 40)}`);

const localDate = GraphQLLocalDate.toConfig();

/** Distinct dates remembered as valid for output; a day a year for 50 years fits many times over. */
export const SERIALIZED_DATES_LIMIT = 50_000;
const serializedDates = new Map<string, string>();

/**
 * Output dates are the service's own, and the same few thousand days repeat in every answer (the
 * imminent list serialises hundreds per request): a string once checked is answered from memory.
 * Input (parseValue, parseLiteral) is validated every time.
 */
function serialize(value: unknown): string {
  if (typeof value === 'string') {
    const known = serializedDates.get(value);
    if (known !== undefined) return known;
  }
  const checked = localDate.serialize(value) as string;
  if (typeof value === 'string') {
    if (serializedDates.size >= SERIALIZED_DATES_LIMIT) serializedDates.clear();
    serializedDates.set(value, checked);
  }
  return checked;
}

/** A calendar date as `YYYY-MM-DD` in the years 1800 to 9999; anything else (2021-02-30, 0001-01-01) is refused as bad input. */
export const DateScalar = new GraphQLScalarType({
  ...localDate,
  serialize,
  name: 'Date',
  description: 'A calendar date, YYYY-MM-DD (UK Parliament dates have no time zone)',
  parseValue(value) {
    if (!isCalendarDate(value)) throw refusal(value);
    return value;
  },
  parseLiteral(ast) {
    if (ast.kind !== Kind.STRING || !isCalendarDate(ast.value)) throw refusal(ast.kind === Kind.STRING ? ast.value : ast.kind);
    return ast.value;
  },
});
