/** One document's refusal in an unordered write the server answered (E11000 and the like). */
export type DocumentWriteError = { index: number; code?: number; errmsg?: string; keyPattern?: Record<string, unknown> };

/**
 * The per-document refusals of an unordered `insertMany` of `count` documents that failed, when the
 * server answered for every document: each one either inserted or refused with its own write
 * error. `undefined` when the outcome is unknown — the driver wraps a lost connection, a timeout or
 * a write-concern failure in the same MongoBulkWriteError, with an EMPTY `writeErrors` list, so "no
 * write error" there does not mean "stored": the documents may not exist (or exist but not be
 * durable), and nothing about them may be announced.
 */
export function documentWriteErrors(error: unknown, count: number): DocumentWriteError[] | undefined {
  if (typeof error !== 'object' || error === null) return undefined;
  const e = error as { writeErrors?: unknown; insertedCount?: unknown; result?: { insertedCount?: unknown; getWriteConcernError?: () => unknown } };
  const writeErrors = e.writeErrors;
  if (!Array.isArray(writeErrors) || writeErrors.length === 0) return undefined;
  if (e.result?.getWriteConcernError?.() !== undefined) return undefined;
  const inserted = typeof e.insertedCount === 'number' ? e.insertedCount : typeof e.result?.insertedCount === 'number' ? e.result.insertedCount : undefined;
  // Every document accounted for: inserted, or refused with its own error.
  if (inserted === undefined || inserted + writeErrors.length !== count) return undefined;
  return writeErrors as DocumentWriteError[];
}
