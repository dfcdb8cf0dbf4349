import {
  type GraphQLField,
  type GraphQLInputField,
  type GraphQLNamedType,
  type GraphQLType,
  type GraphQLSchema,
  isEnumType,
  isInputObjectType,
  isInterfaceType,
  isListType,
  isNonNullType,
  isObjectType,
  isScalarType,
  isUnionType,
} from 'graphql';

/** How the schema's scalars arrive in JSON. */
export const SCALARS: Record<string, string> = { Int: 'number', Float: 'number', String: 'string', Boolean: 'boolean', ID: 'string', Date: 'string', DateTimeISO: 'string', JSONObject: 'Record<string, unknown>' };

const ROOTS = new Set(['Query', 'Mutation', 'Subscription']);

const comment = (text: string | null | undefined, indent = '') => (text ? `${indent}/** ${text.replace(/\*\//g, '*\\/').replace(/\s*\n\s*/g, ' ')} */\n` : '');

function typeOf(type: GraphQLType, nullable = true): string {
  if (isNonNullType(type)) return typeOf(type.ofType, false);
  let inner: string;
  if (isListType(type)) {
    const item = typeOf(type.ofType);
    inner = `${item.includes(' ') ? `(${item})` : item}[]`;
  } else if (isScalarType(type)) {
    inner = SCALARS[type.name] ?? 'unknown';
  } else {
    inner = type.name;
  }
  return nullable ? `${inner} | null` : inner;
}

function field(f: GraphQLField<unknown, unknown> | GraphQLInputField, input: boolean): string {
  // an input's nullable field may be left out
  const optional = input && !isNonNullType(f.type) ? '?' : '';
  return `${comment(f.description, '  ')}  ${f.name}${optional}: ${typeOf(f.type)};\n`;
}

/** A named type as TypeScript, with its description as a doc comment. */
export function declaration(type: GraphQLNamedType): string {
  const doc = comment(type.description);
  if (isEnumType(type)) return `${doc}export type ${type.name} = ${type.getValues().map((v) => `'${v.name}'`).join(' | ')};\n`;
  if (isUnionType(type)) return `${doc}export type ${type.name} = ${type.getTypes().map((t) => t.name).join(' | ')};\n`;
  if (isObjectType(type) || isInterfaceType(type) || isInputObjectType(type)) {
    const input = isInputObjectType(type);
    const fields = Object.values(type.getFields()).map((f) => field(f, input));
    return `${doc}export interface ${type.name} {\n${fields.join('')}}\n`;
  }
  return '';
}

/**
 * The public schema's types as TypeScript, for the dashboard (web/src/generated/schema.ts): every
 * object, interface, input, enum and union, a field's nullability kept (`T | null`), arguments
 * left out. Pages describe what they select with `Pick<…>` of these, so a field renamed or
 * retyped in the schema breaks the web build instead of the page.
 */
export function printWebSchemaTypes(schema: GraphQLSchema): string {
  const types = Object.values(schema.getTypeMap())
    .filter((t) => !t.name.startsWith('__') && !isScalarType(t) && !ROOTS.has(t.name))
    .sort((a, b) => a.name.localeCompare(b.name));
  return `// Generated from schema/schema.graphql by \`npm run schema\` (src/cli/web-schema-types.ts): do not edit.\n\n${types.map(declaration).join('\n')}`;
}
