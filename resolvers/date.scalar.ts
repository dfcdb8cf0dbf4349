import { GraphQLError, GraphQLScalarType, Kind } from 'graphql';
import { GraphQLLocalDate } from 'graphql-scalars';
import { FIRST_YEAR, isCalendarDate, LAST_YEAR } from '../model/dates';

const refusal = (value: unknown) => new GraphQLError(`Date must be a calendar date from ${FIRST_YEAR}-01-01 to ${LAST_YEAR}-12-31, YYYY-MM-DD; got ${JSON.stringify(value)?.slice(0, 40)}`);

/** A calendar date as `YYYY-MM-DD` in the years 1800 to 9999; anything else (2021-02-30, 0001-01-01) is refused as bad input. */
export const DateScalar = new GraphQLScalarType({
  ...GraphQLLocalDate.toConfig(),
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
