// Handshake, diagnostics and the small admin commands drivers send on connect.
import { Long, Timestamp } from 'bson';
import { Codes, MongoError } from '../errors.ts';
import { heapFigures } from '../memory.ts';
import type { Doc } from '../values.ts';
import type { Ctx, Handler } from './context.ts';

export const MAX_WIRE_VERSION = 17;
export const SERVER_VERSION = '6.0.0';

export function helloReply(ctx: Ctx, legacyName: boolean): Doc {
  const s = ctx.server;
  const now = new Date();
  const secs = Math.floor(now.getTime() / 1000);
  const opTime = { ts: new Timestamp({ t: secs, i: 1 }), t: Long.fromNumber(1) };
  const r: Doc = {};
  if (ctx.cmd['helloOk'] === true) r['helloOk'] = true;
  if (legacyName) r['ismaster'] = true;
  else r['isWritablePrimary'] = true;
  Object.assign(r, {
    hosts: [s.me],
    setName: s.setName,
    setVersion: 1,
    secondary: false,
    primary: s.me,
    me: s.me,
    electionId: s.electionId,
    lastWrite: { opTime, lastWriteDate: now, majorityOpTime: opTime, majorityWriteDate: now },
    maxBsonObjectSize: 16777216,
    maxMessageSizeBytes: 48000000,
    maxWriteBatchSize: 100000,
    localTime: now,
    logicalSessionTimeoutMinutes: 30,
    connectionId: ctx.connectionId,
    minWireVersion: 0,
    maxWireVersion: MAX_WIRE_VERSION,
    readOnly: false,
    ok: 1,
  });
  return r;
}

const buildInfo: Handler = () => ({
  version: SERVER_VERSION,
  gitVersion: 'embedded',
  versionArray: [6, 0, 0, 0],
  bits: 64,
  debug: false,
  maxBsonObjectSize: 16777216,
  storageEngines: ['embedded'],
  modules: [],
  ok: 1,
});

const serverStatus: Handler = (ctx) => ({
  host: ctx.server.me,
  version: SERVER_VERSION,
  process: 'embedded-mongo',
  pid: Long.fromNumber(process.pid),
  uptime: (Date.now() - ctx.server.startedAt.getTime()) / 1000,
  localTime: new Date(),
  connections: { current: 0, available: 1000 },
  // MongoDB's own fields (MB); here the heap is where the data lives, so its use and limit come too.
  mem: { bits: 64, resident: Math.round(process.memoryUsage.rss() / 1048576), supported: true, ...heapFigures() },
  repl: { setName: ctx.server.setName, isWritablePrimary: true, primary: ctx.server.me, me: ctx.server.me },
  opcounters: ctx.server.opcounters.toDoc(),
  transactions: { currentActive: ctx.engine.active.size },
  metrics: {
    queryExecutor: { scanned: Long.fromNumber(ctx.engine.stats.scannedKeys), scannedObjects: Long.fromNumber(ctx.engine.stats.scannedObjects) },
    cursor: { open: { total: ctx.server.cursors.size } },
    commands: Object.fromEntries([...ctx.engine.stats.commands].map(([name, total]) => [name, { failed: Long.fromNumber(0), total: Long.fromNumber(total) }])),
  },
  ok: 1,
});

const replSetGetStatus: Handler = (ctx) => ({
  set: ctx.server.setName,
  date: new Date(),
  myState: 1,
  members: [{ _id: 0, name: ctx.server.me, health: 1, state: 1, stateStr: 'PRIMARY', self: true }],
  ok: 1,
});

const getParameter: Handler = (ctx) => {
  const r: Doc = {};
  if (ctx.cmd['featureCompatibilityVersion'] !== undefined || ctx.cmd['getParameter'] === '*') {
    r['featureCompatibilityVersion'] = { version: '6.0' };
  }
  if (ctx.cmd['transactionLifetimeLimitSeconds'] !== undefined) r['transactionLifetimeLimitSeconds'] = 60;
  r['ok'] = 1;
  return r;
};

const ok: Handler = () => ({ ok: 1 });

const notSupported =
  (what: string): Handler =>
  () => {
    throw new MongoError(Codes.IllegalOperation, `${what} is not supported by the embedded server`);
  };

export const adminCommands: Record<string, Handler> = {
  hello: (ctx) => helloReply(ctx, false),
  isMaster: (ctx) => helloReply(ctx, true),
  ismaster: (ctx) => helloReply(ctx, true),
  ping: ok,
  buildInfo,
  buildinfo: buildInfo,
  serverStatus,
  replSetGetStatus,
  getParameter,
  getCmdLineOpts: () => ({ argv: ['embedded-mongo'], parsed: {}, ok: 1 }),
  hostInfo: (ctx) => ({ system: { hostname: ctx.server.me, currentTime: new Date() }, os: { type: process.platform }, ok: 1 }),
  whatsmyuri: () => ({ you: '127.0.0.1:0', ok: 1 }),
  connectionStatus: () => ({ authInfo: { authenticatedUsers: [], authenticatedUserRoles: [] }, ok: 1 }),
  getLog: () => ({ totalLinesWritten: 0, log: [], ok: 1 }),
  getFreeMonitoringStatus: () => ({ state: 'disabled', ok: 1 }),
  listCommands: () => ({ commands: {}, ok: 1 }),
  refreshSessions: ok,
  killCursorsAll: ok,
  saslStart: notSupported('authentication'),
  authenticate: notSupported('authentication'),
  logout: ok,
  fsync: ok,
  setFeatureCompatibilityVersion: ok,
};
