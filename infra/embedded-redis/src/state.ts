// Shared server state and the per-connection client record the command handlers work on.
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
  /** Sends bytes immediately (pub/sub deliveries to this client from another connection). */
  send(data: string): void;
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
  lastSaveAt = Math.floor(Date.now() / 1000);
  nextClientId = 1;
  totalCommands = 0;
  totalConnections = 0;
  port = 0;
  tcpPort = 0;
  dataDir: string | undefined;
  /** Set by the server so SAVE/BGSAVE can trigger a snapshot; undefined without a data dir. */
  save: (() => void) | undefined;

  constructor() {
    const markDirty = (): void => {
      this.dirty++;
    };
    for (let i = 0; i < DB_COUNT; i++) this.dbs.push(new Db(i, markDirty));
  }
}
