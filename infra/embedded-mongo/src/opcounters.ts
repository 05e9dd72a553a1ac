// serverStatus().opcounters as mongod keeps them (mongostat and the exporters read them): insert
// counts documents, update and delete count statements, query counts find commands, getmore
// getMore commands, and command every other command (the write commands excepted). Operations
// are counted when received, failed ones too, as mongod does; an insert counts the documents it
// attempted (all of them, or up to the first error of an ordered batch).
import { Long } from 'bson';
import type { Doc } from './values.ts';

const WRITES = new Set(['insert', 'update', 'delete']);

export class OpCounters {
  insert = 0;
  query = 0;
  update = 0;
  delete = 0;
  getmore = 0;
  command = 0;

  /** Counts a command as it arrives (so serverStatus counts itself, as on mongod); inserts wait for the reply. */
  received(name: string, cmd: Doc): void {
    if (name === 'find') this.query++;
    else if (name === 'getMore') this.getmore++;
    else if (!WRITES.has(name)) this.command++;
    else if (name !== 'insert') {
      const list = cmd[name === 'update' ? 'updates' : 'deletes'];
      const n = Array.isArray(list) ? list.length : 0;
      if (name === 'update') this.update += n;
      else this.delete += n;
    }
  }

  answered(name: string, cmd: Doc, reply: Doc): void {
    if (name === 'insert') this.insert += attemptedInserts(cmd, reply);
  }

  toDoc(): Doc {
    const l = (n: number): Long => Long.fromNumber(n);
    return { insert: l(this.insert), query: l(this.query), update: l(this.update), delete: l(this.delete), getmore: l(this.getmore), command: l(this.command) };
  }
}

function attemptedInserts(cmd: Doc, reply: Doc): number {
  const docs = Array.isArray(cmd['documents']) ? cmd['documents'].length : 0;
  if (reply['ok'] !== 1) return docs;
  const n = typeof reply['n'] === 'number' ? reply['n'] : 0;
  const errors = Array.isArray(reply['writeErrors']) ? reply['writeErrors'].length : 0;
  return cmd['ordered'] === false ? docs : Math.min(docs, n + errors);
}
