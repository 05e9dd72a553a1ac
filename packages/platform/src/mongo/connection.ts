import mongoose from 'mongoose';
import type { ClientSession, Connection, Model, Schema } from 'mongoose';
import type { Logger } from 'pino';
import { handOverCommitted, takeAppended } from './outbox.ts';
import './pool-maintenance.ts';

export type { ClientSession, Connection } from 'mongoose';

/**
 * Opens the service's own database. The URL must name a replica set (or a one-node replica set such
 * as the embedded server): the outbox, idempotent consumers and the wallet ledger rely on
 * multi-document transactions.
 */
export async function connectMongo(url: string, logger: Logger, appName: string): Promise<Connection> {
  const connection = mongoose.createConnection(url, { appName, serverSelectionTimeoutMS: 5000, autoIndex: true });
  // A stop closes the connection (mongoose emits `disconnecting` first): that is not worth a warning.
  let closing = false;
  connection.on('disconnecting', () => {
    closing = true;
  });
  connection.on('disconnected', () => (closing ? logger.info('mongodb connection closed') : logger.warn('mongodb disconnected')));
  connection.on('reconnected', () => logger.info('mongodb reconnected'));
  await connection.asPromise();
  logger.info({ database: connection.name }, 'mongodb connected');
  return connection;
}

/** A `/readyz` check: the server answers ping. */
export function mongoReady(connection: Connection) {
  return async () => {
    const db = connection.db;
    if (!db || connection.readyState !== mongoose.ConnectionStates.connected) throw new Error('not connected');
    await db.admin().ping();
  };
}

/**
 * Runs `work` in one transaction, retried as a whole on transient conflicts (WriteConflict), so a
 * state change and the records that go with it (outbox, processed-event marks, ledger lines) are
 * committed together or not at all. The outbox records it wrote are handed to the connection's
 * relay once the commit is acknowledged (durable), and published without being read back.
 */
export async function inTransaction<T>(connection: Connection, work: (session: ClientSession) => Promise<T>): Promise<T> {
  let used: ClientSession | undefined;
  const value = await connection.transaction((session) => {
    used = session;
    takeAppended(session); // a retried attempt starts without the records of the one it replaces
    return work(session);
  });
  if (used) handOverCommitted(connection, takeAppended(used));
  return value;
}

/**
 * Sends independent statements of one transaction at the same time: one round trip for all of them
 * instead of one each. Not for a transaction's first statement, which starts it on the server and
 * must go alone. Settles every statement before failing, so none is still in flight when the
 * transaction is aborted (and retried).
 */
export async function together<T extends readonly unknown[] | []>(statements: T): Promise<{ -readonly [K in keyof T]: Awaited<T[K]> }> {
  const settled: Array<PromiseSettledResult<unknown>> = await Promise.allSettled(statements as readonly unknown[]);
  const values: unknown[] = [];
  for (const result of settled) {
    if (result.status === 'rejected') throw result.reason;
    values.push(result.value);
  }
  return values as { -readonly [K in keyof T]: Awaited<T[K]> };
}

/**
 * True for MongoDB's duplicate-key error; with `collection`, only when that collection raised it
 * (the E11000 message names `db.collection`), so one unique index is not mistaken for another.
 */
export function isDuplicateKeyError(error: unknown, collection?: string): boolean {
  if (typeof error !== 'object' || error === null) return false;
  const writeErrors = 'writeErrors' in error && Array.isArray(error.writeErrors) ? (error.writeErrors as Array<{ code?: number; errmsg?: string }>) : [];
  const candidates: Array<{ code?: unknown; message?: unknown; errmsg?: unknown }> = [error, ...writeErrors];
  return candidates.some((e) => {
    if (e.code !== 11000) return false;
    if (collection === undefined) return true;
    const text = `${typeof e.message === 'string' ? e.message : ''} ${typeof e.errmsg === 'string' ? e.errmsg : ''}`;
    return text.includes(`.${collection} index`);
  });
}

/** The connection's model of that name, compiled from the schema on first use. */
export function modelOn<T>(connection: Connection, name: string, schema: Schema<T>): Model<T> {
  // mongoose's inferred model type carries schema virtuals; callers only need Model<T>.
  return (connection.models[name] ?? connection.model(name, schema)) as unknown as Model<T>;
}
