// Start-up replay of the append-only files written after the snapshot: each command runs through
// the normal dispatcher on a private client, with the clock pinned to the time it first ran.
import type { Logger } from 'pino';
import { aofFiles, aofPath, readAof } from './aof.ts';
import { pinClock } from './clock.ts';
import { execute } from './dispatch.ts';
import { makeClientFields } from './state.ts';
import type { ServerState } from './state.ts';

/** Replays files numbered >= fromSeq; returns how many commands ran and the highest file number seen. */
export function replayAof(dir: string, fromSeq: number, s: ServerState, log: Logger): { commands: number; lastSeq: number } {
  let commands = 0;
  let lastSeq = fromSeq;
  for (const n of aofFiles(dir)) {
    if (n < fromSeq) continue;
    lastSeq = Math.max(lastSeq, n);
    // A fresh client per file: a transaction cut off by a crash (MULTI without EXEC) is dropped.
    const c = makeClientFields(0, 'aof', 'aof', s.dbs[0]!, () => undefined);
    try {
      readAof(
        aofPath(dir, n),
        (r) => {
          pinClock(r.ts);
          execute(c, r.argv, s);
          c.reply.take();
          commands++;
        },
        log,
      );
    } finally {
      pinClock(undefined);
    }
    if (c.multi !== undefined) log.warn({ file: aofPath(dir, n) }, 'append-only file ends inside MULTI; that transaction was not applied');
  }
  return { commands, lastSeq };
}
