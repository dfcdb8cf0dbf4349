import {
  type FragmentDefinitionNode,
  type GraphQLCompositeType,
  type GraphQLSchema,
  type GraphQLType,
  isCompositeType,
  isEnumType,
  isInterfaceType,
  isListType,
  isNonNullType,
  isObjectType,
  isScalarType,
  Kind,
  type OperationDefinitionNode,
  parse,
  print,
  type SelectionSetNode,
} from 'graphql';
import { declaration, SCALARS } from './web-schema-types';

/** Writes what each selection set returns, recording the enums it meets. */
class SelectionPrinter {
  readonly enums = new Set<string>();


  /** A selection set's JSON: the fragments it spreads, and an object of its own fields. */
  selection(parent: GraphQLCompositeType, set: SelectionSetNode, indent: string): string {
    const parts: string[] = [];
    const fields: string[] = [];
    for (const selection of set.selections) {
      if (selection.kind === Kind.FRAGMENT_SPREAD) parts.push(selection.name.value);
      else if (selection.kind === Kind.INLINE_FRAGMENT) throw new Error(`inline fragments are not supported (in a selection on ${parent.name})`);
      else if (selection.name.value === '__typename') fields.push(`${indent}  ${selection.alias?.value ?? '__typename'}: '${parent.name}';\n`);
      else {
        if (!isObjectType(parent) && !isInterfaceType(parent)) throw new Error(`${parent.name} has no field ${selection.name.value}`);
        const field = parent.getFields()[selection.name.value];
        if (!field) throw new Error(`${parent.name} has no field ${selection.name.value}`);
        fields.push(`${indent}  ${selection.alias?.value ?? selection.name.value}: ${this.value(field.type, selection.selectionSet, `${indent}  `)};\n`);
      }
    }
    if (fields.length) parts.push(`{\n${fields.join('')}${indent}}`);
    return parts.join(' & ');
  }

  private value(type: GraphQLType, set: SelectionSetNode | undefined, indent: string, nullable = true): string {
    if (isNonNullType(type)) return this.value(type.ofType, set, indent, false);
    let inner: string;
    if (isListType(type)) {
      const item = this.value(type.ofType, set, indent);
      // an object literal stands alone (spreads come before it); a union or an intersection needs parentheses
      const alone = /^\w+$/.test(item) || (item.startsWith('{') && item.endsWith('}'));
      inner = `${alone ? item : `(${item})`}[]`;
    } else if (isScalarType(type)) {
      inner = SCALARS[type.name] ?? 'unknown';
    } else if (isEnumType(type)) {
      this.enums.add(type.name);
      inner = type.name;
    } else if (isCompositeType(type) && set) {
      inner = this.selection(type, set, indent);
    } else {
      throw new Error(`${type.name} needs a selection set`);
    }
    return nullable ? `${inner} | null` : inner;
  }
}

/**
 * The data of each REST document (src/doors/rest/documents.ts) as TypeScript, from the schema they
 * run against (src/doors/rest/generated/document-data.ts): each fragment as a type of its name, each
 * operation's data as `<name>Data`, and `DocumentData` mapping operation names to them, so a route
 * reads what its document selects and a field the schema renames or retypes breaks the build.
 * Enums are the GraphQL names JSON carries; leaf types are written as the dashboard's are
 * (web-schema-types.ts).
 */
export function printDocumentTypes(schema: GraphQLSchema, documents: Readonly<Record<string, string>>): string {
  const printer = new SelectionPrinter();
  const fragments = new Map<string, FragmentDefinitionNode>();
  const operations: OperationDefinitionNode[] = [];
  for (const [name, source] of Object.entries(documents)) {
    for (const definition of parse(source).definitions) {
      if (definition.kind === Kind.FRAGMENT_DEFINITION) {
        const known = fragments.get(definition.name.value);
        if (known && print(known) !== print(definition)) throw new Error(`fragment ${definition.name.value} is defined twice, differently`);
        fragments.set(definition.name.value, definition);
      } else if (definition.kind === Kind.OPERATION_DEFINITION) {
        if (definition.name?.value !== name) throw new Error(`document ${name} must hold one operation named ${name}`);
        operations.push(definition);
      }
    }
  }
  const fragmentTypes = [...fragments.values()]
    .sort((a, b) => a.name.value.localeCompare(b.name.value))
    .map((f) => {
      const on = schema.getType(f.typeCondition.name.value);
      if (!isCompositeType(on)) throw new Error(`fragment ${f.name.value} is on ${f.typeCondition.name.value}, not an object type`);
      return `/** fragment ${f.name.value} on ${on.name} */\nexport type ${f.name.value} = ${printer.selection(on, f.selectionSet, '')};\n`;
    });
  const operationTypes = operations.map((o) => {
    const root = schema.getRootType(o.operation);
    if (!root) throw new Error(`the schema has no ${o.operation} type`);
    return `export type ${o.name!.value}Data = ${printer.selection(root, o.selectionSet, '')};\n`;
  });
  const enums = [...printer.enums].sort().map((name) => declaration(schema.getType(name)!));
  const index = `/** Each REST document's data, by operation name. */\nexport interface DocumentData {\n${operations.map((o) => `  ${o.name!.value}: ${o.name!.value}Data;\n`).join('')}}\n`;
  return `// Generated from schema/schema.graphql and src/doors/rest/documents.ts by \`npm run schema\` (src/cli/rest-document-types.ts): do not edit.\n\n${[...enums, ...fragmentTypes, ...operationTypes, index].join('\n')}`;
}
