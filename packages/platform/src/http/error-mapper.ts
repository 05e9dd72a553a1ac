import type { NextFunction, Request, Response } from 'express';
import type { Logger } from 'pino';
import { ZodError } from 'zod';
import { type ErrorBody, HttpError, RetryLater, genericMessages } from './errors.ts';

/** body-parser's errors carry a `type`; these are the client's fault. */
const bodyParserErrors: Record<string, { status: number; code: string; message: string }> = {
  'entity.too.large': { status: 413, code: 'PAYLOAD_TOO_LARGE', message: genericMessages.payloadTooLarge },
  'entity.parse.failed': { status: 400, code: 'MALFORMED_BODY', message: genericMessages.badRequest },
  'encoding.unsupported': { status: 415, code: 'UNSUPPORTED_ENCODING', message: genericMessages.unsupportedMediaType },
  'charset.unsupported': { status: 415, code: 'UNSUPPORTED_CHARSET', message: genericMessages.unsupportedMediaType },
  'request.aborted': { status: 400, code: 'REQUEST_ABORTED', message: genericMessages.badRequest },
};

/** The driver's errors for a database it cannot reach right now (not for a refused statement). */
const unreachable = /^Mongo(Network|NetworkTimeout|ServerSelection|NotConnected|TopologyClosed|PoolCleared)Error$/;
const socketCodes = new Set(['EPIPE', 'ECONNRESET', 'ECONNREFUSED', 'ETIMEDOUT']);
const transientLabels = ['RetryableWriteError', 'TransientTransactionError', 'UnknownTransactionCommitResult', 'ResetPool'];

/**
 * Whether an error means "try again shortly" rather than a fault: the database unreachable or
 * restarting (directly, or as the cause of another error). Such a request is answered 503, not 500.
 */
export function isTemporaryError(error: unknown, depth = 0): boolean {
  if (typeof error !== 'object' || error === null || depth > 4) return false;
  const e = error as { name?: unknown; code?: unknown; writeErrors?: unknown; cause?: unknown; hasErrorLabel?: (label: string) => boolean };
  if (typeof e.name === 'string' && unreachable.test(e.name)) return true;
  // A socket cut under a request (Node's "This socket has been ended by the other party" is EPIPE).
  if (typeof e.code === 'string' && socketCodes.has(e.code)) return true;
  if (typeof e.hasErrorLabel === 'function' && transientLabels.some((l) => e.hasErrorLabel!(l))) return true;
  // A bulk write cut off by a lost connection: the driver's bulk error with no write error listed.
  if (e.name === 'MongoBulkWriteError' && Array.isArray(e.writeErrors) && e.writeErrors.length === 0) return true;
  return isTemporaryError(e.cause, depth + 1);
}

function toHttpError(error: unknown): HttpError | undefined {
  if (error instanceof HttpError) return error;
  if (isTemporaryError(error)) return new RetryLater('TEMPORARILY_UNAVAILABLE', genericMessages.internal);
  if (error instanceof ZodError) {
    const details = error.issues.map((issue) => ({ field: issue.path.join('.'), message: issue.message }));
    return new HttpError(400, 'VALIDATION_FAILED', genericMessages.badRequest, details);
  }
  if (typeof error === 'object' && error !== null && 'type' in error && typeof error.type === 'string') {
    const known = bodyParserErrors[error.type];
    if (known) return new HttpError(known.status, known.code, known.message);
  }
  return undefined;
}

/**
 * The one place errors become answers: client mistakes → 4xx JSON with a message; anything else →
 * 500 with a generic message, logged in full here and never sent to the client.
 */
export function errorMapper(fallbackLogger: Logger) {
  return (error: unknown, req: Request, res: Response, _next: NextFunction) => {
    const log = req.log ?? fallbackLogger;
    const mapped = toHttpError(error);
    if (res.headersSent) {
      log.error({ err: error }, 'error after response started');
      res.destroy();
      return;
    }
    if (mapped) {
      const body: ErrorBody = { code: mapped.code, message: mapped.message };
      if (mapped.details !== undefined) body.details = mapped.details;
      if (mapped.status >= 500) log.error({ err: error }, 'request failed');
      if (mapped instanceof RetryLater) res.setHeader('retry-after', String(mapped.retryAfterSeconds));
      res.status(mapped.status).json(body);
      return;
    }
    log.error({ err: error }, 'unexpected error');
    res.status(500).json({ code: 'INTERNAL', message: genericMessages.internal } satisfies ErrorBody);
  };
}
