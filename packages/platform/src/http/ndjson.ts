import type { Request, Response } from 'express';
import { HttpError } from './errors.ts';

/** A source of documents read one at a time (a MongoDB cursor: `collection.find(...).batchSize(n)`). */
export type DocumentSource<T> = AsyncIterable<T> & { close?: () => Promise<unknown> };

/**
 * Streams documents as newline-delimited JSON (`application/x-ndjson`), one line each, honouring
 * backpressure: a write the socket cannot take yet waits for `drain`, so a year of records passes
 * through holding one batch of the cursor, never the whole result. A client that goes away closes
 * the cursor. An error after the first line cannot change the status any more: the stream ends
 * with a last line `{"error": {...}}`, which readers treat as a failed export.
 */
export async function streamNdjson<T>(req: Request, res: Response, source: DocumentSource<T>, toLine: (doc: T) => unknown): Promise<void> {
  // The response closing before it finished is the client gone (a request's own 'close' may come
  // as soon as its empty body is read).
  let gone = false;
  const onClose = () => {
    gone = !res.writableFinished;
  };
  res.on('close', onClose);
  res.status(200);
  res.setHeader('content-type', 'application/x-ndjson; charset=utf-8');
  res.setHeader('cache-control', 'no-store');
  try {
    for await (const doc of source) {
      if (gone) break;
      if (!res.write(`${JSON.stringify(toLine(doc))}\n`)) await drained(res);
    }
  } catch (error) {
    if (!res.headersSent) throw error;
    req.log?.error({ err: (error as Error).message }, 'export stream failed');
    res.write(`${JSON.stringify({ error: { code: 'EXPORT_FAILED', message: (error as Error).message } })}\n`);
  } finally {
    res.off('close', onClose);
    await source.close?.().catch(() => undefined);
  }
  res.end();
}

/** Resolves when `res` can take more (its `drain`) or has closed: the wait of a write that returned false. */
export function drained(res: Response): Promise<void> {
  return new Promise((resolve) => {
    const done = () => {
      res.off('drain', done);
      res.off('close', done);
      resolve();
    };
    res.on('drain', done);
    res.on('close', done);
  });
}

const isoDate = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(?::\d{2}(?:\.\d{1,3})?)?(?:Z|[+-]\d{2}:\d{2})$/;

/**
 * The `from` (inclusive) and `to` (exclusive) instants of an export or report query, ISO 8601 with
 * a zone; absent means open. 400 with `message` for anything else or a range that ends before it starts.
 */
export function instantRange(query: Request['query'], message: string): { from: Date | null; to: Date | null } {
  const read = (name: 'from' | 'to'): Date | null => {
    const value = query[name];
    if (value === undefined || value === '') return null;
    if (typeof value !== 'string' || !isoDate.test(value) || Number.isNaN(Date.parse(value))) throw new HttpError(400, 'VALIDATION_FAILED', message);
    return new Date(value);
  };
  const from = read('from');
  const to = read('to');
  if (from !== null && to !== null && to.getTime() < from.getTime()) throw new HttpError(400, 'VALIDATION_FAILED', message);
  return { from, to };
}

/** A MongoDB range condition on a date field, or undefined when both ends are open. */
export function dateCondition(range: { from: Date | null; to: Date | null }): Record<string, Date> | undefined {
  if (range.from === null && range.to === null) return undefined;
  return { ...(range.from && { $gte: range.from }), ...(range.to && { $lt: range.to }) };
}
