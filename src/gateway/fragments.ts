import { type DocumentNode, type FragmentDefinitionNode, Kind } from 'graphql';

/** A document's fragment definitions by name: what every walk that follows a spread looks it up in. */
export function fragmentsByName(document: DocumentNode): Map<string, FragmentDefinitionNode> {
  const fragments = new Map<string, FragmentDefinitionNode>();
  for (const definition of document.definitions) if (definition.kind === Kind.FRAGMENT_DEFINITION) fragments.set(definition.name.value, definition);
  return fragments;
}
