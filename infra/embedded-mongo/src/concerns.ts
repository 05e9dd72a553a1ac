// Read and write concerns (and collations, refused) of a one-member replica set whose every commit is fsync'd before the
// reply: each level is honoured as the server would on such a set, or refused with its error.
import type { Engine } from './engine.ts';
import { Codes, MongoError } from './errors.ts';
import { isPlainObject } from './values.ts';
import type { Doc } from './values.ts';

const READS = new Set(['find', 'count', 'distinct', 'aggregate']);

/** w: 0, 1 and "majority" are met by the fsync every commit gets; more members or tags cannot be. */
export function checkWriteConcern(cmd: Doc): void {
  const wc = cmd['writeConcern'];
  if (wc === undefined) return;
  if (!isPlainObject(wc)) throw new MongoError(Codes.FailedToParse, 'writeConcern must be an object');
  const w = wc['w'];
  if (w === undefined || w === 'majority') return;
  const n = typeof w === 'number' ? w : typeof (w as { valueOf?: () => unknown })?.valueOf?.() === 'number' ? Number(w) : undefined;
  if (n !== undefined) {
    if (!Number.isInteger(n) || n < 0) throw new MongoError(Codes.FailedToParse, `w has to be a non-negative number and not greater than 50; found: ${n}`);
    if (n > 1) throw new MongoError(Codes.UnsatisfiableWriteConcern, 'Not enough data-bearing nodes');
    return;
  }
  if (typeof w === 'string') throw new MongoError(Codes.UnknownReplWriteConcern, `No write concern mode named '${w}' found in replica set configuration`);
  throw new MongoError(Codes.FailedToParse, 'w has to be a number or a string');
}

function level(cmd: Doc): string | undefined {
  const rc = cmd['readConcern'];
  if (rc === undefined) return undefined;
  if (!isPlainObject(rc)) throw new MongoError(Codes.FailedToParse, 'readConcern must be an object');
  if (rc['atClusterTime'] !== undefined || rc['afterClusterTime'] !== undefined || rc['afterOpTime'] !== undefined) {
    throw new MongoError(Codes.InvalidOptions, 'readConcern atClusterTime/afterClusterTime is not supported by the embedded server (it reports no cluster time)');
  }
  const l = rc['level'];
  if (l === undefined) return undefined;
  if (typeof l !== 'string' || !['local', 'available', 'majority', 'snapshot', 'linearizable'].includes(l)) {
    throw new MongoError(Codes.FailedToParse, `Read concern level must be one of local, available, majority, snapshot, linearizable; found: ${String(l)}`);
  }
  return l;
}

/**
 * The snapshot a read outside a transaction sees: undefined for local/available (everything
 * committed), the durable point for majority and snapshot, and for linearizable the durable point
 * once everything committed before the read has been fsync'd.
 */
export async function readTimestamp(engine: Engine, name: string, cmd: Doc): Promise<number | undefined> {
  const l = level(cmd);
  if (l === undefined || l === 'local' || l === 'available') return undefined;
  if (!READS.has(name)) throw new MongoError(Codes.InvalidOptions, `Command ${name} does not support { readConcern: { level: "${l}" } }`);
  if (l === 'linearizable') {
    if (name === 'aggregate' || name === 'distinct') throw new MongoError(Codes.InvalidOptions, `readConcern linearizable is not supported by ${name}`);
    await engine.waitDurable(engine.clock);
  }
  return engine.durable;
}

/** The snapshot a transaction starts from, by the readConcern of its first statement. */
export function transactionSnapshot(engine: Engine, cmd: Doc, first: boolean): number {
  const l = level(cmd);
  if (!first && l !== undefined) throw new MongoError(Codes.InvalidOptions, 'Only the first command in a transaction may specify a readConcern');
  if (l === undefined || l === 'local') return engine.clock;
  if (l === 'majority' || l === 'snapshot') return engine.durable;
  throw new MongoError(Codes.InvalidOptions, `The readConcern level must be either 'local' (default), 'majority' or 'snapshot' in order to run in a transaction; found: ${l}`);
}

/** Non-simple collations change comparisons; the embedded server compares binary only. */
export function refuseCollation(cmd: Doc): void {
  const check = (c: unknown): void => {
    if (c === undefined || (isPlainObject(c) && c['locale'] === 'simple')) return;
    throw new MongoError(Codes.CommandNotSupported, 'collations other than { locale: "simple" } are not supported by the embedded MongoDB server');
  };
  check(cmd['collation']);
  for (const list of ['updates', 'deletes']) {
    const st = cmd[list];
    if (Array.isArray(st)) for (const x of st) if (isPlainObject(x)) check(x['collation']);
  }
}
