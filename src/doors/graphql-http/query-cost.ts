import {
  type DocumentNode,
  type FieldNode,
  getArgumentValues,
  getNamedType,
  getVariableValues,
  GraphQLError,
  type GraphQLField,
  type GraphQLNamedType,
  type GraphQLSchema,
  type GraphQLType,
  isInputObjectType,
  isEnumType,
  isInterfaceType,
  isObjectType,
  isUnionType,
  Kind,
  type OperationDefinitionNode,
  type SelectionSetNode,
  type ValidationRule,
} from 'graphql';
import { ACCESS_EXTENSION } from '../../request/access-rules';
import type { RequestContext } from '../../request/context';
import { badInput } from '../../errors';
import { fragmentsByName } from '../../gateway/fragments';
import { ANONYMOUS_QUERY_BUDGET, introspectionWeight, KEYED_QUERY_BUDGET, LIST_SIZE_BOUNDS, type ListSizes, LONE_EXPORT_BUDGET, LONE_EXPORT_FIELD, LONE_TRACK_RECORD_BUDGET, LONE_TRACK_RECORD_FIELD, MAX_MUTATIONS, SIZED_ROOT_FIELDS, weightOf } from './query-weights';

/*
 * Both walks below remember what each named fragment adds, so a fragment spread a thousand
 * times, or fragments that each spread the next twice, are walked once each: the time to check a
 * document grows with its size, never with the number of paths through its fragments.
 */

export interface CostReport {
  /** in units of about 20 µs of server time (see query-weights.ts) */
  cost: number;
  /** mutation fields at the operation's root, fragments included */
  mutations: number;
  /** how many times a fragment's selection was walked: once per fragment used */
  fragmentWalks: number;
}

export interface CostOptions {
  /** a request without a key: fields it may not call cost only the refusal */
  anonymous: boolean;
  variables?: Record<string, unknown>;
  /** the real lengths of the caller's lists (default: the most they can hold) */
  sizes?: ListSizes;
}

interface Tally {
  cost: number;
  /** fields selected at this level, through fragments too */
  fields: number;
}

const INTROSPECTION_TYPES: Record<string, string> = { __schema: '__Schema', __type: '__Type' };

/** How many non-null and list wrappers a type reference has around its named type. */
function wrapperCount(type: GraphQLType): number {
  let count = 0;
  for (let t = type; 'ofType' in t && t.ofType; t = t.ofType as GraphQLType) count += 1;
  return count;
}

const introspectionSizes = new WeakMap<GraphQLSchema, ReadonlyMap<string, number>>();

/**
 * How many items each list of the schema's description of itself holds on average per parent
 * (`__Type.fields`: the schema's fields over its types), so that `__schema { types { fields } }`
 * is costed by the answer it gives. Read once per schema.
 */
export function introspectionListLengths(schema: GraphQLSchema): ReadonlyMap<string, number> {
  const known = introspectionSizes.get(schema);
  if (known) return known;
  const types = Object.values(schema.getTypeMap());
  const fields = types.flatMap((t): GraphQLField<unknown, unknown>[] => (isObjectType(t) || isInterfaceType(t) ? Object.values(t.getFields()) : []));
  const directives = schema.getDirectives();
  const sum = (values: number[]) => values.reduce((a, b) => a + b, 0);
  const references = [...fields.flatMap((f) => [f.type, ...f.args.map((a) => a.type)]), ...types.flatMap((t) => (isInputObjectType(t) ? Object.values(t.getFields()).map((f) => f.type) : []))];
  const wrappers = sum(references.map(wrapperCount));
  const perType = (count: (type: GraphQLNamedType) => number) => sum(types.map(count)) / types.length;
  const lengths = new Map<string, number>([
    ['__Schema.types', types.length],
    ['__Schema.directives', directives.length],
    ['__Type.fields', fields.length / types.length],
    ['__Type.inputFields', perType((t) => (isInputObjectType(t) ? Object.keys(t.getFields()).length : 0))],
    ['__Type.enumValues', perType((t) => (isEnumType(t) ? t.getValues().length : 0))],
    ['__Type.interfaces', perType((t) => (isObjectType(t) || isInterfaceType(t) ? t.getInterfaces().length : 0))],
    ['__Type.possibleTypes', perType((t) => (isUnionType(t) || isInterfaceType(t) ? schema.getPossibleTypes(t).length : 0))],
    ['__Field.args', sum(fields.map((f) => f.args.length)) / Math.max(1, fields.length)],
    ['__Directive.args', sum(directives.map((d) => d.args.length)) / Math.max(1, directives.length)],
    ['__Directive.locations', sum(directives.map((d) => d.locations.length)) / Math.max(1, directives.length)],
    // a type reference is its wrappers (non-null, list) then the named type: the chain of `ofType`
    // ends after as many as it has, so each level is there with the odds of one more wrapper
    ['__Type.ofType', wrappers / (wrappers + references.length)],
  ]);
  introspectionSizes.set(schema, lengths);
  return lengths;
}

/** What an operation would cost to run, and how many mutations it holds. */
export function operationCost(schema: GraphQLSchema, document: DocumentNode, operation: OperationDefinitionNode, options: CostOptions): CostReport {
  const fragments = fragmentsByName(document);
  const coerced = getVariableValues(schema, operation.variableDefinitions ?? [], options.variables ?? {});
  const variables = 'coerced' in coerced ? coerced.coerced : {};
  const rootTypes = new Set([schema.getQueryType(), schema.getMutationType(), schema.getSubscriptionType()].filter(Boolean));
  const mutationType = schema.getMutationType();
  const sizes = options.sizes ?? LIST_SIZE_BOUNDS;
  const introspection = introspectionListLengths(schema);
  const known = new Map<string, Tally>();
  let fragmentWalks = 0;

  const fieldCost = (parent: GraphQLNamedType | undefined, node: FieldNode): number => {
    const name = node.name.value;
    const definition = parent && (isObjectType(parent) || isInterfaceType(parent)) ? parent.getFields()[name] : undefined;
    const childType = definition ? getNamedType(definition.type) : schema.getType(INTROSPECTION_TYPES[name] ?? '');
    if (definition && parent && rootTypes.has(parent as never) && options.anonymous && definition.extensions?.[ACCESS_EXTENSION] !== 'public') {
      return 1; // refused by its access rule before it runs
    }
    const child = node.selectionSet ? selectionTally(childType, node.selectionSet).cost : 0;
    if (!definition) return 1 + child;
    let args: Record<string, unknown> = {};
    try {
      args = getArgumentValues(definition, node, variables);
    } catch {
      // bad arguments: execution refuses them; the field is costed with its defaults
    }
    if (parent!.name.startsWith('__')) return introspectionWeight(introspection.get(`${parent!.name}.${name}`))(args, child, sizes);
    const isRoot = rootTypes.has(parent as never);
    return weightOf(parent!.name, name, parent === mutationType, !isRoot && !node.selectionSet)(args, child, sizes);
  };

  const fragmentTally = (name: string): Tally => {
    const remembered = known.get(name);
    if (remembered) return remembered;
    const fragment = fragments.get(name);
    if (!fragment) return { cost: 0, fields: 0 };
    known.set(name, { cost: 0, fields: 0 }); // a cycle (refused by validation) adds nothing
    fragmentWalks += 1;
    const tally = selectionTally(schema.getType(fragment.typeCondition.name.value), fragment.selectionSet);
    known.set(name, tally);
    return tally;
  };

  const selectionTally = (type: GraphQLNamedType | undefined, selectionSet: SelectionSetNode): Tally => {
    const tally = { cost: 0, fields: 0 };
    for (const selection of selectionSet.selections) {
      const part =
        selection.kind === Kind.FIELD
          ? { cost: fieldCost(type, selection), fields: 1 }
          : selection.kind === Kind.INLINE_FRAGMENT
            ? selectionTally(selection.typeCondition ? schema.getType(selection.typeCondition.name.value) : type, selection.selectionSet)
            : fragmentTally(selection.name.value);
      tally.cost += part.cost;
      tally.fields += part.fields;
    }
    return tally;
  };

  const rootType = operation.operation === 'mutation' ? mutationType : operation.operation === 'subscription' ? schema.getSubscriptionType() : schema.getQueryType();
  const root = selectionTally(rootType ?? undefined, operation.selectionSet);
  return { cost: Math.ceil(root.cost), mutations: operation.operation === 'mutation' ? root.fields : 0, fragmentWalks };
}

/** Costs per variables and anonymity kept at most for one document (clients repeat the same few). */
const COSTS_PER_DOCUMENT = 50;

/**
 * The cost of an operation is fixed by its document, its variables and whether the caller is
 * anonymous: remembered per document (Apollo hands back the same parsed document for the same
 * text), so a repeated request is not walked again.
 */
class RememberedCosts {
  private readonly byDocument = new WeakMap<DocumentNode, Map<string, ReturnType<typeof operationCost>>>();

  constructor(private readonly schema: GraphQLSchema) {}

  of(document: DocumentNode, operation: OperationDefinitionNode, anonymous: boolean, variables: Record<string, unknown> | undefined, sizes: ListSizes | undefined): ReturnType<typeof operationCost> {
    let known = this.byDocument.get(document);
    if (!known) this.byDocument.set(document, (known = new Map()));
    const key = `${anonymous} ${operation.name?.value ?? ''} ${JSON.stringify(variables ?? {})} ${sizes ? Object.values(sizes).join() : ''}`;
    let cost = known.get(key);
    if (!cost) {
      cost = operationCost(this.schema, document, operation, { anonymous, variables, sizes });
      if (known.size >= COSTS_PER_DOCUMENT) known.clear();
      known.set(key, cost);
    }
    return cost;
  }
}

/** Whether the operation's root fields return lists sized by the caller's data (fragments at the root are assumed to). */
const readsSizedLists = (operation: OperationDefinitionNode) =>
  operation.selectionSet.selections.some((s) => s.kind !== Kind.FIELD || SIZED_ROOT_FIELDS.has(s.name.value));

/**
 * The root field of a query that holds that field and nothing else (no fragment, no alias beside
 * it), or null: one watchlist export, or one track record, has a budget of its own (the fullest
 * answer it can give), which a second copy or any other field beside it takes away.
 */
const loneField = (operation: OperationDefinitionNode): string | null => {
  const [only, ...more] = operation.selectionSet.selections;
  return operation.operation === 'query' && !more.length && only.kind === Kind.FIELD ? only.name.value : null;
};

/** The real lengths of the caller's lists: two small queries, made only for operations that read them. */
async function listSizesOf({ services, user }: RequestContext): Promise<ListSizes> {
  const [watchlists, liveBills] = await Promise.all([services.watchlists.sizes(user!.accountId), services.predictions.liveBillCount()]);
  return { ...watchlists, liveBills: liveBills ?? LIST_SIZE_BOUNDS.liveBills };
}

/** Throws the BAD_USER_INPUT error that refuses an operation over the limits; every door whose client writes the document runs it before anything else. */
export type QueryCostCheck = (document: DocumentNode, operation: OperationDefinitionNode, variables: Record<string, unknown> | undefined, context: RequestContext) => Promise<void>;

/**
 * Refuses, before anything runs, an operation over its cost budget (the keyed one, the small
 * anonymous one, or a lone watchlist export's) or holding more than MAX_MUTATIONS mutation fields:
 * 400 with the cost in the detail.
 */
export function queryCostCheck(
  schema: GraphQLSchema,
  limits: { keyed: number; anonymous: number; loneExport: number; loneTrackRecord: number; mutations: number } = {
    keyed: KEYED_QUERY_BUDGET,
    anonymous: ANONYMOUS_QUERY_BUDGET,
    loneExport: LONE_EXPORT_BUDGET,
    loneTrackRecord: LONE_TRACK_RECORD_BUDGET,
    mutations: MAX_MUTATIONS,
  },
): QueryCostCheck {
  const costs = new RememberedCosts(schema);
  return async (document, operation, variables, context) => {
    const anonymous = !context.user;
    const sizes = anonymous || !readsSizedLists(operation) ? undefined : await listSizesOf(context);
    const { cost, mutations } = costs.of(document, operation, anonymous, variables, sizes);
    if (mutations > limits.mutations) {
      throw badInput(`This request holds ${mutations} mutations; at most ${limits.mutations} may be sent in one request`);
    }
    const lone = loneField(operation);
    const base = anonymous ? limits.anonymous : limits.keyed;
    const budget = lone === LONE_TRACK_RECORD_FIELD ? Math.max(base, limits.loneTrackRecord) : !anonymous && lone === LONE_EXPORT_FIELD ? Math.max(base, limits.loneExport) : base;
    if (cost > budget) {
      const whose = anonymous ? ' for a request without an API key' : '';
      throw badInput(`This query would cost ${cost}, over the limit of ${budget}${whose}: ask for fewer bills, fields or aliases per request`);
    }
  };
}

/**
 * The deepest selection an operation may have. The schema's longest sensible path
 * (bills → edges → node → prediction → riskIndicators → a field) is 6 deep.
 */
export const MAX_QUERY_DEPTH = 10;

/**
 * The schema's description of itself nests `ofType` about 8 levels for a list of non-null types,
 * so tools' standard introspection query is 15 deep. It reads no data, and the token guard
 * (src/gateway/document-guard.ts) bounds its size, so its depth is not counted.
 */
const INTROSPECTION_ROOTS = new Set(['__schema', '__type']);

/** How deep an operation's selections go, counting through fragments (each walked once). */
export function operationDepth(document: DocumentNode, operation: OperationDefinitionNode): { depth: number; fragmentWalks: number } {
  const fragments = fragmentsByName(document);
  const known = new Map<string, number>();
  let fragmentWalks = 0;
  const fragmentDepth = (name: string): number => {
    const remembered = known.get(name);
    if (remembered !== undefined) return remembered;
    const fragment = fragments.get(name);
    if (!fragment) return 0;
    known.set(name, 0); // a cycle (refused by validation) adds nothing
    fragmentWalks += 1;
    const depth = depthOf(fragment.selectionSet);
    known.set(name, depth);
    return depth;
  };
  const depthOf = (selectionSet: SelectionSetNode): number => {
    let deepest = 0;
    for (const selection of selectionSet.selections) {
      const depth =
        selection.kind === Kind.FIELD
          ? 1 + (selection.selectionSet && !INTROSPECTION_ROOTS.has(selection.name.value) ? depthOf(selection.selectionSet) : 0)
          : selection.kind === Kind.INLINE_FRAGMENT
            ? depthOf(selection.selectionSet)
            : fragmentDepth(selection.name.value);
      deepest = Math.max(deepest, depth);
    }
    return deepest;
  };
  return { depth: depthOf(operation.selectionSet), fragmentWalks };
}

/** A validation rule refusing operations nested deeper than `maxDepth`, counting through fragments. */
export function depthLimit(maxDepth = MAX_QUERY_DEPTH): ValidationRule {
  return (context) => ({
    OperationDefinition(operation) {
      const { depth } = operationDepth(context.getDocument(), operation);
      if (depth > maxDepth) context.reportError(new GraphQLError(`This query is ${depth} levels deep, over the limit of ${maxDepth}`, { nodes: [operation] }));
    },
  });
}
