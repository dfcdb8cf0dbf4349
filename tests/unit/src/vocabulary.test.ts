import { type GraphQLSchema, isEnumType, isObjectType, Kind, parse, visit } from 'graphql';
import { BINARY_OUTPUTS } from '../../../src/model/serve/labels';
import { buildAppSchema } from '../../../src/graphql/build-schema';
import { ALL_DOCUMENTS } from '../../../src/doors/rest/documents';
import { OPENAPI_DOCUMENT } from '../../../src/doors/rest/openapi/openapi-document';
import {
  ALERT_TYPES,
  BATCH_ITEM_STATUSES,
  COMPARISONS,
  CURRENT_STAGES,
  EVENT_TYPES,
  isOneOf,
  MAIN_STAGES,
  OUTPUT_WORDS,
  PREDICTION_OUTPUTS,
  RISK_LEVELS,
  RISKS,
  riskLevelField,
  TIERS,
  TIME_BUCKETS,
  URGENCY_LEVELS,
} from '../../../src/vocabulary';

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

/** Each field of a GraphQL type, with its type as the schema prints it. */
function fieldsOf(name: string): Record<string, string> {
  const type = schema.getType(name);
  if (!isObjectType(type)) throw new Error(`${name} is not an object type`);
  return Object.fromEntries(Object.values(type.getFields()).map((field) => [field.name, String(field.type)]));
}

/** The fields a REST document's fragment or operation selects, at any depth. */
function selectedIn(definitionName: string): Set<string> {
  const selected = new Set<string>();
  const document = parse(Object.values(ALL_DOCUMENTS).find((source) => source.includes(` ${definitionName}`))!);
  const definition = document.definitions.find((d) => (d.kind === Kind.FRAGMENT_DEFINITION || d.kind === Kind.OPERATION_DEFINITION) && d.name?.value === definitionName)!;
  visit(definition, { Field: (field) => void selected.add(field.name.value) });
  return selected;
}

describe('the prediction’s outputs (PREDICTION_OUTPUTS), which every place that spells a prediction follows', () => {
  const fieldType = (output: keyof typeof PREDICTION_OUTPUTS) => (PREDICTION_OUTPUTS[output].measure === 'days' ? 'Float' : 'Float!');

  it('are the fields of the GraphQL Prediction: probabilities never null, days null when no next stage will come', () => {
    const fields = fieldsOf('Prediction');
    expect(OUTPUT_WORDS.map((output) => [output, fields[PREDICTION_OUTPUTS[output].field]])).toEqual(OUTPUT_WORDS.map((output) => [output, fieldType(output)]));
  });

  it('give each risk to an item of the imminent list too, and a level to the risk indicators (nothing else has one)', () => {
    const imminent = fieldsOf('ImminentBill');
    expect(RISKS.map((risk) => imminent[PREDICTION_OUTPUTS[risk].field])).toEqual(RISKS.map(() => 'Float!'));
    const levels = Object.entries(fieldsOf('RiskIndicators')).filter(([, type]) => type === 'RiskLevel!');
    expect(levels.map(([field]) => field).sort()).toEqual(RISKS.map(riskLevelField).sort());
  });

  it('are what the model gives: a network per probability, and the ETA', () => {
    expect([...BINARY_OUTPUTS, 'timeline_eta'].sort()).toEqual([...OUTPUT_WORDS].sort());
  });

  it('are what REST’s documents select, so every door can spell them all', () => {
    const prediction = selectedIn('PredictionFields');
    expect(OUTPUT_WORDS.filter((output) => !prediction.has(PREDICTION_OUTPUTS[output].field))).toEqual([]);
    const imminent = selectedIn('Imminent');
    expect(RISKS.filter((risk) => !imminent.has(PREDICTION_OUTPUTS[risk].field))).toEqual([]);
    const indicators = selectedIn('RiskIndicatorFields');
    expect(RISKS.filter((risk) => !indicators.has(riskLevelField(risk)))).toEqual([]);
  });
});
