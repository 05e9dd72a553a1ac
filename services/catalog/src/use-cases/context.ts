import type { ClientSession } from 'mongoose';
import type { Logger } from 'pino';
import { type AuditAction, type AuditTargetType, type EventEnvelope, type EventOrigin, Topics } from '@smm/contracts';
import { type AuditFields, appendToOutbox, badRequest, conflict, inTransaction, notFound, recordOperatorAction } from '@smm/platform';
import type { Problem } from '../domain/problem.ts';
import { type Store, sequences } from '../store/store.ts';
import type { ReadCache } from './read-cache.ts';

/** What every use case needs. */
export type CatalogDeps = {
  store: Store;
  logger: Logger;
  /** Public answers cached per catalog version; absent = always read the database. */
  cache?: ReadCache;
};

/** Who asked for a change; events carry it as their correlation. */
export type Actor = EventOrigin & { userId?: string | undefined; role?: string | null | undefined };

export type Emit = (...events: EventEnvelope[]) => void;

/** Records the operator's change for the audit log (issue 12), in the change's transaction. */
export type Audit = (actor: Actor, action: AuditAction, target: { type: AuditTargetType; id: string | number }, change: { before: AuditFields; after: AuditFields }) => Promise<void>;

/**
 * Runs a change and the events it causes in one transaction: the outbox records commit with the
 * change or not at all (retried as a whole on write conflicts); `inTransaction` hands them to the
 * relay at commit, which publishes them at once.
 */
export async function commit<T>(deps: CatalogDeps, work: (session: ClientSession, emit: Emit, audit: Audit) => Promise<T>): Promise<T> {
  return inTransaction(deps.store.connection, async (session) => {
    const events: EventEnvelope[] = [];
    const audit: Audit = async (actor, action, target, change) => {
      const caller = { userId: actor.userId ?? null, role: (actor.role ?? null) as never };
      await recordOperatorAction(deps.store.connection, session, { caller, action, target: { type: target.type, id: String(target.id) }, ...change }, actor);
    };
    const result = await work(session, (...more) => events.push(...more), audit);
    // Every write moves the catalog version, so cached public answers (any replica's) go stale at once.
    await deps.store.nextSeq(sequences.catalogVersion, session);
    await appendToOutbox(deps.store.connection, session, Topics.catalog, events);
    return result;
  });
}

export const invalid = (p: Problem) => badRequest(p.message, undefined, p.code);
export const refused = (p: Problem) => conflict(p.message, p.code);
export const missing = (message: string, code: string) => notFound(message, code);
