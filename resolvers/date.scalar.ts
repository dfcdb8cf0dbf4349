import { GraphQLScalarType } from 'graphql';
import { GraphQLLocalDate } from 'graphql-scalars';

/** A calendar date as `YYYY-MM-DD`; invalid dates (2021-02-30) are refused as bad input. */
export const DateScalar = new GraphQLScalarType({
  ...GraphQLLocalDate.toConfig(),
  name: 'Date',
  description: 'A calendar date, YYYY-MM-DD (UK Parliament dates have no time zone)',
});
