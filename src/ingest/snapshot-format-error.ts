/**
 * A snapshot folder the operator must fix (a missing file, a malformed line), with what is wrong and
 * where. Its own file so that the admin commands recognise it without loading the ingest code.
 */
export class SnapshotFormatError extends Error {}
