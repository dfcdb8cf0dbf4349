import { type DocumentNode, Kind, type OperationDefinitionNode } from 'graphql';
import { type AppError, badInput } from '../errors';

/**
 * The refusal of a document whose operationName picks none of its operations (a name it does not
 * hold, or none given where it holds several): a client's mistake, said with the names it could
 * have given, the same on every door. graphql-js finds no operation there and leaves the answer
 * to the caller; without this, the executor met the gap and it became a 500.
 */
export function unresolvedOperation(document: DocumentNode, operationName: string | null | undefined): AppError {
  const operations = document.definitions.filter((definition): definition is OperationDefinitionNode => definition.kind === Kind.OPERATION_DEFINITION);
  const names = operations.map((operation) => (operation.name ? `"${operation.name.value}"` : 'an anonymous one'));
  const held = names.length === 1 ? `its one operation is ${names[0]}` : `its operations are ${names.join(', ')}`;
  if (operationName) return badInput(`operationName "${operationName}" names no operation of the document: ${held}${operations.length === 1 && !operations[0].name ? ' (leave operationName out to run it)' : ''}`, 'operationName');
  return badInput(`The document holds ${operations.length} operations (${names.join(', ')}): name the one to run in operationName`, 'operationName');
}
