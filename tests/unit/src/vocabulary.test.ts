import { type GraphQLSchema, isEnumType } from 'graphql';
import { buildAppSchema } from '../../../resolvers/build-schema';
import { OPENAPI_DOCUMENT } from '../../../rest-compat/openapi/openapi-document';
import { ALERT_TYPES, BATCH_ITEM_STATUSES, COMPARISONS, CURRENT_STAGES, EVENT_TYPES, isOneOf, MAIN_STAGES, RISK_LEVELS, TIERS, TIME_BUCKETS, URGENCY_LEVELS } from '../../../src/vocabulary';

let schema: GraphQLSchema;
beforeAll(async () => {
  schema = await buildAppSchema();
});

const schemas = OPENAPI_DOCUMENT.components.schemas as Record<string, any>;

describe('the vocabulary', () => {
  it.each([
    ['Tier', TIERS],
    ['AlertType', ALERT_TYPES],
    ['Comparison', COMPARISONS],
    ['RiskLevel', RISK_LEVELS],
    ['UrgencyLevel', URGENCY_LEVELS],
    ['TimeBucket', TIME_BUCKETS],
    ['BatchItemStatus', BATCH_ITEM_STATUSES],
    ['MainStage', MAIN_STAGES],
  ] as const)('is the GraphQL enum %s: names upper-cased, values the words themselves', (name, words) => {
    const type = schema.getType(name);
    if (!isEnumType(type)) throw new Error(`${name} is not an enum`);
    expect(type.getValues().map((v) => [v.name, v.value])).toEqual(words.map((w) => [w.toUpperCase(), w]));
  });

  it('is what the OpenAPI document allows', () => {
    expect(schemas.ThresholdRequest.properties.alert_type.enum).toEqual(ALERT_TYPES);
    expect(schemas.ThresholdRequest.properties.comparison.enum).toEqual(COMPARISONS);
    expect(schemas.RiskIndicators.properties.stall_risk_level.enum).toEqual(RISK_LEVELS);
    expect(schemas.ImminentItem.properties.urgency_level.enum).toEqual(URGENCY_LEVELS);
    expect(schemas.ImminentItem.properties.time_bucket.enum).toEqual([...TIME_BUCKETS, null]);
    expect(schemas.BatchItem.properties.status.enum).toEqual(BATCH_ITEM_STATUSES);
    expect(schemas.BatchItem.properties.metadata.properties.stage.enum).toEqual(CURRENT_STAGES);
    expect(schemas.WatchlistBill.properties.current_stage.properties.stage.enum).toEqual(MAIN_STAGES);
    expect(schemas.Webhook.properties.events.items.enum).toEqual(EVENT_TYPES);
    expect(schemas.WebhookRequest.properties.events.items.enum).toEqual(EVENT_TYPES);
  });

  it('is the GraphQL enum EventType: the words with dots as underscores, upper-cased', () => {
    const type = schema.getType('EventType');
    if (!isEnumType(type)) throw new Error('EventType is not an enum');
    expect(type.getValues().map((v) => [v.name, v.value])).toEqual(EVENT_TYPES.map((w) => [w.replace(/\./g, '_').toUpperCase(), w]));
  });

  it('tells its words from anything else', () => {
    expect(isOneOf(TIERS, 'pilot')).toBe(true);
    expect(isOneOf(TIERS, 'Pilot')).toBe(false);
    expect(isOneOf(TIERS, 1)).toBe(false);
  });
});
