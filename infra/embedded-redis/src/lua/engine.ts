// The Lua scripting engine behind EVAL/EVALSHA/SCRIPT: one Lua state for the server (as in
// Redis), scripts compiled once and kept by SHA1, redis.call/pcall dispatching through the normal
// command path, and Redis 7.0's conversions between Lua values and replies (conversions.ts). A script runs
// synchronously on the event loop, so nothing else runs in between: scripts are atomic.
// The ambient fengari types must also load when another workspace type-checks this file.
// eslint-disable-next-line @typescript-eslint/triple-slash-reference
/// <reference path="./fengari.d.ts" />
import { createHash } from 'node:crypto';
import fengari from 'fengari';
import type { LuaState } from 'fengari';
import { execute, lookupCommand } from '../dispatch.ts';
import { makeClientFields } from '../state.ts';
import type { Client, ServerState } from '../state.ts';
import { bytesLatin1, latin1Bytes, formatG, useLua51Numbers } from './numbers.ts';
import { pushErrorTable, pushReply, toReply } from './conversions.ts';
import { parseResp2 } from './resp2.ts';

const { lua, lauxlib, lualib, to_luastring } = fengari;
const S = to_luastring;

/** Lua run once per state: Lua 5.1 names scripts use, libraries Redis does not offer removed. */
const PRELUDE = `
unpack = table.unpack
table.getn = function(t) return #t end
math.pow = function(a, b) return a ^ b end
local tostr, mtype = tostring, math.type
tostring = function(v) if mtype(v) == 'float' then return v .. '' end return tostr(v) end
local floor, ceil = math.floor, math.ceil
math.floor = function(x) return floor(x) + 0.0 end
math.ceil = function(x) return ceil(x) + 0.0 end
io = nil; os = nil; package = nil; require = nil; loadfile = nil; dofile = nil; utf8 = nil
-- A script stopped at the time limit must not be able to catch that and carry on.
local rawpcall, rawxpcall, pack, unpk = pcall, xpcall, table.pack, table.unpack
local function killed(e) return type(e) == 'table' and rawget(e, 'killed') == true end
pcall = function(f, ...)
  local r = pack(rawpcall(f, ...))
  if not r[1] and killed(r[2]) then error(r[2], 0) end
  return unpk(r, 1, r.n)
end
xpcall = function(f, h, ...)
  local r = pack(rawxpcall(f, function(e) if killed(e) then return e end return h(e) end, ...))
  if not r[1] and killed(r[2]) then error(r[2], 0) end
  return unpk(r, 1, r.n)
end
`;

/**
 * Redis's error handler: string errors become {err='ERR ...'}, and the script line is attached
 * (skipping native functions — 'C' in Redis, 'J' for fengari's JS — and the read-only globals
 * guard, which is native in Redis and Lua here).
 */
const ERROR_HANDLER = `
local dbg = debug
return function(err)
  local level = 2
  local i = dbg.getinfo(level, 'nSl')
  while i and (i.what == 'C' or i.what == 'J' or i.source == '=env') do
    level = level + 1
    i = dbg.getinfo(level, 'nSl')
  end
  if type(err) ~= 'table' then err = {err = 'ERR ' .. tostring(err)} end
  if i then
    err['source'] = i.source
    err['line'] = i.currentline
  end
  return err
end
`;

/** Scripts see globals through this read-only view (Redis 7 protects the global table). */
const READONLY_ENV = `
local G = ...
return setmetatable({}, {
  __index = function(_, k)
    local v = rawget(G, k)
    if v == nil then error("Script attempted to access nonexistent global variable '" .. tostring(k) .. "'", 2) end
    return v
  end,
  __newindex = function() error('Attempt to modify a readonly table', 2) end,
  __metatable = false,
})
`;

class ScriptError extends Error {}

export class ScriptEngine {
  private L!: LuaState;
  private scripts = new Map<string, number>();
  private handlerRef = 0;
  private envRef = 0;
  private globalsRef = 0;
  /** The client scripts' redis.call commands run as (RESP2, like Redis's script client). */
  private readonly sc: Client;
  private caller: { s: ServerState } | undefined;

  constructor() {
    useLua51Numbers();
    this.sc = makeClientFields(-1, 'lua', 'lua', undefined as never, () => undefined);
    this.reset();
  }

  /** SCRIPT FLUSH: a fresh Lua state, no cached scripts. */
  reset(): void {
    const L = lauxlib.luaL_newstate();
    this.L = L;
    this.scripts.clear();
    lualib.luaL_openlibs(L);
    this.runChunk(PRELUDE, 0);
    this.installRedisTable();
    this.runChunk(ERROR_HANDLER, 1);
    this.handlerRef = lauxlib.luaL_ref(L, lua.LUA_REGISTRYINDEX);
    lua.lua_rawgeti(L, lua.LUA_REGISTRYINDEX, lua.LUA_RIDX_GLOBALS);
    lua.lua_pushvalue(L, -1);
    this.globalsRef = lauxlib.luaL_ref(L, lua.LUA_REGISTRYINDEX);
    this.loadOrThrow(READONLY_ENV, '=env');
    lua.lua_rawgeti(L, lua.LUA_REGISTRYINDEX, this.globalsRef);
    if (lua.lua_pcall(L, 1, 1, 0) !== lua.LUA_OK) throw new ScriptError('cannot build the script environment');
    this.envRef = lauxlib.luaL_ref(L, lua.LUA_REGISTRYINDEX);
    lua.lua_settop(L, 0);
  }

  private loadOrThrow(code: string, name: string): void {
    if (lauxlib.luaL_loadbuffer(this.L, S(code), null, S(name)) !== lua.LUA_OK) {
      throw new ScriptError(`internal Lua chunk ${name} does not compile: ${this.topString()}`);
    }
  }

  private runChunk(code: string, results: number): void {
    this.loadOrThrow(code, '=prelude');
    if (lua.lua_pcall(this.L, 0, results, 0) !== lua.LUA_OK) throw new ScriptError(`internal Lua chunk failed: ${this.topString()}`);
  }

  private topString(): string {
    const s = lua.lua_tolstring(this.L, -1);
    return s === null ? '?' : bytesLatin1(s);
  }

  has(sha: string): boolean {
    return this.scripts.has(sha.toLowerCase());
  }

  static sha1(body: string): string {
    return createHash('sha1').update(body, 'latin1').digest('hex');
  }

  /** Compiles and caches a script; returns its SHA1 or the compile error reply text. */
  load(body: string): { sha: string } | { error: string } {
    const sha = ScriptEngine.sha1(body);
    if (this.scripts.has(sha)) return { sha };
    const L = this.L;
    if (lauxlib.luaL_loadbuffer(L, latin1Bytes(body), null, S('@user_script')) !== lua.LUA_OK) {
      const msg = this.topString();
      lua.lua_settop(L, 0);
      // Lua 5.1 (Redis) quotes the end-of-input token; 5.3 does not.
      return { error: `ERR Error compiling script (new function): ${msg.replace(/near <eof>$/, "near '<eof>'")}` };
    }
    // The script's _ENV is the read-only view of the globals.
    lua.lua_rawgeti(L, lua.LUA_REGISTRYINDEX, this.envRef);
    lua.lua_setupvalue(L, -2, 1);
    this.scripts.set(sha, lauxlib.luaL_ref(L, lua.LUA_REGISTRYINDEX));
    lua.lua_settop(L, 0);
    return { sha };
  }

  /** Runs a cached script for client c, writing its reply (or error) to c.reply. */
  run(c: Client, s: ServerState, sha: string, keys: string[], args: string[]): void {
    const ref = this.scripts.get(sha.toLowerCase());
    if (ref === undefined) return c.reply.err('NOSCRIPT No matching script. Please use EVAL.');
    const L = this.L;
    lua.lua_settop(L, 0);
    lua.lua_rawgeti(L, lua.LUA_REGISTRYINDEX, this.globalsRef);
    this.pushStrings(keys);
    lua.lua_setfield(L, 1, S('KEYS'));
    this.pushStrings(args);
    lua.lua_setfield(L, 1, S('ARGV'));
    lua.lua_settop(L, 0);
    lua.lua_rawgeti(L, lua.LUA_REGISTRYINDEX, this.handlerRef);
    lua.lua_rawgeti(L, lua.LUA_REGISTRYINDEX, ref);
    this.sc.db = c.db;
    this.sc.reply.proto = 2;
    this.caller = { s };
    // Redis answers BUSY to others while a long script runs and lets SCRIPT KILL stop one that has
    // not written. Here nothing else can run meanwhile, so such a script is stopped at the limit
    // (pcall/xpcall re-raise that error, so the script cannot swallow it).
    const limit = s.scriptTimeLimitMs;
    const started = Date.now();
    const writesBefore = s.writes;
    if (limit > 0) {
      lua.lua_sethook(
        L,
        (l) => {
          if (Date.now() - started <= limit || s.writes !== writesBefore) return;
          pushErrorTable(l, `ERR Script ran longer than ${limit} ms without writing and was killed (busy-reply-threshold)`);
          lua.lua_pushboolean(l, true);
          lua.lua_setfield(l, -2, S('killed'));
          lua.lua_error(l);
        },
        lua.LUA_MASKCOUNT,
        10000,
      );
    }
    let status: number;
    try {
      status = lua.lua_pcall(L, 0, 1, 1);
    } finally {
      this.caller = undefined;
      lua.lua_sethook(L, null, 0, 0);
    }
    if (status === lua.LUA_OK) toReply(this.L, -1, c.reply);
    else c.reply.err(this.errorText(sha));
    lua.lua_settop(L, 0);
  }

  /** The error reply for a failed script: Redis's "<err> script: <sha>, on @user_script:<line>." */
  private errorText(sha: string): string {
    const L = this.L;
    if (lua.lua_type(L, -1) !== lua.LUA_TTABLE) return `ERR Error running script ${sha}, ${this.topString().slice(0, 100)}`;
    const field = (k: string): string | undefined => {
      lua.lua_getfield(L, -1, S(k));
      const t = lua.lua_type(L, -1);
      const v = t === lua.LUA_TSTRING || t === lua.LUA_TNUMBER ? this.topString() : undefined;
      lua.lua_pop(L, 1);
      return v;
    };
    const err = field('err') ?? 'ERR unknown error';
    const source = field('source');
    const line = field('line');
    return source !== undefined && line !== undefined ? `${err} script: ${sha}, on ${source}:${line}.` : err;
  }

  private pushStrings(items: string[]): void {
    const L = this.L;
    lua.lua_createtable(L, items.length, 0);
    for (let i = 0; i < items.length; i++) {
      lua.lua_pushstring(L, latin1Bytes(items[i]!));
      lua.lua_rawseti(L, -2, i + 1);
    }
  }

  private installRedisTable(): void {
    const L = this.L;
    lua.lua_createtable(L, 0, 16);
    const fn = (name: string, f: (L: LuaState) => number): void => {
      lua.lua_pushjsfunction(L, f);
      lua.lua_setfield(L, -2, S(name));
    };
    fn('call', (l) => this.call(l, true));
    fn('pcall', (l) => this.call(l, false));
    fn('error_reply', (l) => this.statusTable(l, 'err'));
    fn('status_reply', (l) => this.statusTable(l, 'ok'));
    fn('sha1hex', (l) => {
      if (lua.lua_gettop(l) !== 1) return this.raise(l, 'wrong number of arguments');
      const s = lua.lua_tolstring(l, 1);
      lua.lua_pushstring(l, S(ScriptEngine.sha1(s === null ? '' : bytesLatin1(s))));
      return 1;
    });
    fn('log', (l) => {
      const n = lua.lua_gettop(l);
      if (n < 2) return this.raise(l, 'redis.log() requires two arguments or more.');
      const level = lua.lua_tonumber(l, 1);
      if (lua.lua_type(l, 1) !== lua.LUA_TNUMBER || level < 0 || level > 3) return this.raise(l, 'Invalid debug level.');
      const parts: string[] = [];
      for (let i = 2; i <= n; i++) {
        const v = lua.lua_tolstring(l, i);
        if (v !== null) parts.push(bytesLatin1(v));
      }
      const log = this.caller?.s.log;
      const msg = parts.join(' ');
      if (level === 3) log?.warn({ script: true }, msg);
      else if (level === 2) log?.info({ script: true }, msg);
      else log?.debug({ script: true }, msg);
      return 0;
    });
    fn('setresp', (l) => {
      if (lua.lua_gettop(l) !== 1 || lua.lua_tonumber(l, 1) !== 2) {
        return this.raise(l, 'the embedded server runs scripts with RESP2 replies only: redis.setresp(2)');
      }
      return 0;
    });
    // Redis 7 always replicates scripts by their effects; this is a no-op there too.
    fn('replicate_commands', (l) => {
      lua.lua_pushboolean(l, true);
      return 1;
    });
    const num = (name: string, v: number): void => {
      lua.lua_pushnumber(L, v);
      lua.lua_setfield(L, -2, S(name));
    };
    num('LOG_DEBUG', 0);
    num('LOG_VERBOSE', 1);
    num('LOG_NOTICE', 2);
    num('LOG_WARNING', 3);
    lua.lua_setglobal(L, S('redis'));
  }

  /** Raises a Lua error with a plain message (Lua adds no position for JS functions). */
  private raise(L: LuaState, msg: string): never {
    lua.lua_pushstring(L, latin1Bytes(msg));
    return lua.lua_error(L);
  }

  private statusTable(L: LuaState, field: 'ok' | 'err'): number {
    if (lua.lua_gettop(L) !== 1 || lua.lua_type(L, 1) !== lua.LUA_TSTRING) {
      return this.raise(L, 'wrong number or type of arguments');
    }
    lua.lua_createtable(L, 0, 1);
    lua.lua_pushvalue(L, 1);
    lua.lua_setfield(L, -2, S(field));
    return 1;
  }

  /** redis.call (raise = true) and redis.pcall. */
  private call(L: LuaState, raise: boolean): number {
    const fail = (msg: string): number => {
      lua.lua_settop(L, 0);
      pushErrorTable(L, msg);
      if (raise) return lua.lua_error(L);
      return 1;
    };
    const n = lua.lua_gettop(L);
    if (n === 0) return fail('ERR Please specify at least one argument for this redis lib call');
    const argv: string[] = [];
    for (let i = 1; i <= n; i++) {
      const t = lua.lua_type(L, i);
      if (t === lua.LUA_TNUMBER) {
        const v = lua.lua_tonumber(L, i);
        argv.push(lua.lua_isinteger(L, i) ? String(v) : formatG(v, 17));
      } else if (t === lua.LUA_TSTRING) argv.push(bytesLatin1(lua.lua_tolstring(L, i)!));
      else return fail('ERR Lua redis lib command arguments must be strings or integers');
    }
    const spec = lookupCommand(argv[0]!);
    if (spec === undefined) return fail('ERR Unknown Redis command called from script');
    if ((spec.arity > 0 && n !== spec.arity) || n < -spec.arity) return fail('ERR Wrong number of args calling Redis command from script');
    if (spec.flags.includes('noscript')) return fail('ERR This Redis command is not allowed from script');
    const s = this.caller!.s;
    execute(this.sc, argv, s);
    const reply = parseResp2(this.sc.reply.take());
    lua.lua_settop(L, 0);
    if (typeof reply === 'object' && reply !== null && 'err' in reply) return fail(reply.err);
    pushReply(L, reply);
    return 1;
  }
}
