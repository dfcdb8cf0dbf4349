/** The oldest Node.js line the service runs on; package.json's `engines` says the same (a test checks). */
export const MIN_NODE_MAJOR = 20;

/** Why this Node.js cannot run the service, or null when it can. */
export function unsupportedNodeMessage(version: string): string | null {
  const major = Number(/^v?(\d+)\./.exec(version)?.[1]);
  if (major >= MIN_NODE_MAJOR) return null;
  return `bill-progress needs Node.js ${MIN_NODE_MAJOR} or newer (tested on 20, 22 and 24); this is Node.js ${version}.`;
}
