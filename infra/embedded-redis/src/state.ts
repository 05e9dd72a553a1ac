// Shared server state and the per-connection client record the command handlers work on.
import type { Logger } from 'pino';
import type { AppendOnlyFile, FsyncPolicy } from './aof.ts';
import { publish } from './commands/pubsub.ts';
import type { ScriptEngine } from './lua/engine.ts';
import type { KeyEvents } from './notify.ts';
import { Db } from './store/db.ts';
import type { KeyWatcher } from './store/db.ts';
import { Reply } from './resp/reply.ts';

export const REDIS_VERSION = '7.0.15';
export const DB_COUNT = 16;

export interface Client extends KeyWatcher {
  readonly id: number;
  readonly addr: string;
  readonly laddr: string;
  readonly createdAt: number;
  name: string;
  libName: string;
  libVer: string;
  db: Db;
  lastActive: number;
  lastCmd: string;
  readonly reply: Reply;
  /** Queued commands while in MULTI; undefined otherwise. */
  multi: string[][] | undefined;
  multiFailed: boolean;
  watching: { db: Db; key: string; existed: boolean }[];
  readonly channels: Set<string>;
  readonly patterns: Set<string>;
  closeAfterReply: boolean;
  /** While blocked in BLPOP/BRPOP: what it waits for. Its later requests wait unprocessed. */
  blocked: BlockState | undefined;
  /** True while EXEC runs this client's queued commands: blocking commands do not block then. */
  inExec: boolean;
  /** Set by the connection: sends what a just-unblocked client has in its reply buffer and
   * carries on with the requests that arrived while it was blocked. */
  resume: () => void;
  /** Set by a write command whose effect must be logged differently from its arguments (SPOP → SREM). */
  propagate: string[] | undefined;
  /** Sends bytes immediately (pub/sub deliveries to this client from another connection). */
  send(data: string): void;
}

export interface BlockState {
  db: Db;
  keys: string[];
  /** BLPOP pops from the head, BRPOP from the tail. */
  left: boolean;
  timer: NodeJS.Timeout | undefined;
  /** Set for XREADGROUP ... BLOCK: what to read once an XADD arrives. */
  stream?: { group: string; consumer: string; count: number | undefined; noack: boolean };
}

export function makeClientFields(
  id: number,
  addr: string,
  laddr: string,
  db: Db,
  send: (d: string) => void,
): Client {
  const now = Date.now();
  return {
    id,
    addr,
    laddr,
    createdAt: now,
    name: '',
    libName: '',
    libVer: '',
    db,
    lastActive: now,
    lastCmd: 'NULL',
    reply: new Reply(),
    multi: undefined,
    multiFailed: false,
    watching: [],
    channels: new Set(),
    patterns: new Set(),
    closeAfterReply: false,
    propagate: undefined,
    blocked: undefined,
    inExec: false,
    resume: () => undefined,
    dirtyCas: false,
    send,
  };
}

export class ServerState {
  readonly dbs: Db[] = [];
  readonly clients = new Map<number, Client>();
  readonly channels = new Map<string, Set<Client>>();
  readonly patterns = new Map<string, Set<Client>>();
  readonly startedAt = Date.now();
  /** Writes since the last snapshot (Redis's "changes since last save"). */
  dirty = 0;
  /** Every keyspace modification ever (monotonic): tells the AOF whether a command wrote. */
  writes = 0;
  /** The append-only file, when enabled (set after start-up replay). */
  aof: AppendOnlyFile | undefined;
  /** notify-keyspace-events flags, shared with every Db; publish is wired by the pub/sub module. */
  readonly keyEvents: KeyEvents = { flags: 0, publish: () => undefined };
  /** Keys that received elements while clients wait on them; served after the current command. */
  readonly readyKeys: { db: Db; key: string }[] = [];
  /** The server's logger (redis.log from scripts writes to it). */
  log: Logger | undefined;
  /** busy-reply-threshold (lua-time-limit): a script running longer without writing is stopped; 0 = never. */
  scriptTimeLimitMs = 5000;
  /** Lua scripting (created on first EVAL/SCRIPT LOAD). */
  scripts: ScriptEngine | undefined;
  /** CONFIG GET/SET appendfsync (kept even while the AOF is off, as Redis does). */
  appendfsync: FsyncPolicy = 'everysec';
  lastSaveAt = Math.floor(Date.now() / 1000);
  nextClientId = 1;
  totalCommands = 0;
  totalConnections = 0;
  port = 0;
  tcpPort = 0;
  dataDir: string | undefined;
  /** Called by the first write since the last snapshot (the server's snapshot timer). */
  onFirstDirty: () => void = () => undefined;
  /** Set by the server so SAVE/BGSAVE can trigger a snapshot; undefined without a data dir. */
  save: (() => void) | undefined;

  constructor() {
    const markDirty = (): void => {
      if (this.dirty++ === 0) this.onFirstDirty();
      this.writes++;
    };
    this.keyEvents.publish = (ch, msg) => {
      publish(this, ch, msg);
    };
    for (let i = 0; i < DB_COUNT; i++) {
      const db = new Db(i, markDirty, this.keyEvents);
      db.onReady = (d, key) => {
        if (!this.readyKeys.some((r) => r.db === d && r.key === key)) this.readyKeys.push({ db: d, key });
      };
      this.dbs.push(db);
    }
  }
}
