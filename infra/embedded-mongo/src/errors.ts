// Errors that become MongoDB-shaped command responses ({ok: 0, code, codeName, errmsg}).
import type { Doc } from './values.ts';

export const Codes = {
  BadValue: 2,
  FailedToParse: 9,
  Unauthorized: 13,
  TypeMismatch: 14,
  IllegalOperation: 20,
  NamespaceNotFound: 26,
  IndexNotFound: 27,
  CursorNotFound: 43,
  NamespaceExists: 48,
  MaxTimeMSExpired: 50,
  CommandNotFound: 59,
  InvalidOptions: 72,
  InvalidNamespace: 73,
  CannotCreateIndex: 67,
  CommandNotSupported: 115,
  UnknownReplWriteConcern: 79,
  UnsatisfiableWriteConcern: 100,
  IndexOptionsConflict: 85,
  IndexKeySpecsConflict: 86,
  WriteConflict: 112,
  NoSuchTransaction: 251,
  TransactionCommitted: 256,
  TransactionTooOld: 225,
  OperationNotSupportedInTransaction: 263,
  DuplicateKey: 11000,
  ImmutableField: 66,
  InvalidIdField: 53,
  DollarPrefixedFieldName: 52,
} as const;

const names: Record<number, string> = Object.fromEntries(Object.entries(Codes).map(([k, v]) => [v, k]));

export class MongoError extends Error {
  readonly code: number;
  readonly labels: string[];
  readonly extra: Doc;
  constructor(code: number, message: string, opts: { labels?: string[]; extra?: Doc } = {}) {
    super(message);
    this.code = code;
    this.labels = opts.labels ?? [];
    this.extra = opts.extra ?? {};
  }
  get codeName(): string {
    return names[this.code] ?? 'UnknownError';
  }
  toResponse(): Doc {
    const r: Doc = { ok: 0, errmsg: this.message, code: this.code, codeName: this.codeName, ...this.extra };
    if (this.labels.length) r['errorLabels'] = this.labels;
    return r;
  }
}

export function writeConflict(): MongoError {
  return new MongoError(
    Codes.WriteConflict,
    'WriteConflict error: this operation conflicted with another operation. Please retry your operation or multi-document transaction.',
    { labels: ['TransientTransactionError'] },
  );
}

export function badValue(msg: string): MongoError {
  return new MongoError(Codes.BadValue, msg);
}

/** Thrown by a non-transactional write that hit a document locked by an open transaction. */
export class LockWait extends Error {
  constructor(readonly until: Promise<void>) {
    super('lock wait');
  }
}
