// Redis 7.0's conversions between Lua values and replies: a command's RESP2 reply into Lua for
// redis.call, and a script's result into the client's reply.
// eslint-disable-next-line @typescript-eslint/triple-slash-reference
/// <reference path="./fengari.d.ts" />
import fengari from 'fengari';
import type { LuaState } from 'fengari';
import { Reply } from '../resp/reply.ts';
import { bytesLatin1, latin1Bytes } from './numbers.ts';
import type { Resp2 } from './resp2.ts';

const { lua, to_luastring: S } = fengari;

export function pushErrorTable(L: LuaState, msg: string): void {
  lua.lua_createtable(L, 0, 1);
  lua.lua_pushstring(L, latin1Bytes(msg));
  lua.lua_setfield(L, -2, S('err'));
}

/** RESP2 reply → Lua, as Redis converts for redis.call. */
export function pushReply(L: LuaState, r: Resp2): void {
  if (r === null) lua.lua_pushboolean(L, false);
  else if (typeof r === 'number') lua.lua_pushnumber(L, r);
  else if (typeof r === 'string') lua.lua_pushstring(L, latin1Bytes(r));
  else if (Array.isArray(r)) {
    lua.lua_createtable(L, r.length, 0);
    for (let i = 0; i < r.length; i++) {
      pushReply(L, r[i]!);
      lua.lua_rawseti(L, -2, i + 1);
    }
  } else if ('ok' in r) {
    lua.lua_createtable(L, 0, 1);
    lua.lua_pushstring(L, latin1Bytes(r.ok));
    lua.lua_setfield(L, -2, S('ok'));
  } else pushErrorTable(L, r.err);
}

/** Lua value at idx → reply, as Redis 7.0 converts a script's result. */
export function toReply(L: LuaState, idx: number, out: Reply): void {
  const t = lua.lua_type(L, idx);
  if (t === lua.LUA_TSTRING) return out.bulk(bytesLatin1(lua.lua_tolstring(L, idx)!));
  if (t === lua.LUA_TBOOLEAN) return lua.lua_toboolean(L, idx) ? out.int(1) : out.nil();
  if (t === lua.LUA_TNUMBER) {
    const v = Math.trunc(lua.lua_tonumber(L, idx));
    return out.int(Number.isFinite(v) ? v + 0 : -9223372036854775808);
  }
  if (t !== lua.LUA_TTABLE) return out.nil();
  const abs = idx < 0 ? lua.lua_gettop(L) + idx + 1 : idx;
  for (const field of ['err', 'ok'] as const) {
    lua.lua_getfield(L, abs, S(field));
    if (lua.lua_type(L, -1) === lua.LUA_TSTRING) {
      const msg = bytesLatin1(lua.lua_tolstring(L, -1)!);
      lua.lua_pop(L, 1);
      return field === 'err' ? out.err(msg) : out.simple(msg.replace(/[\r\n]/g, ' '));
    }
    lua.lua_pop(L, 1);
  }
  // An array up to the first nil; elements are converted into a side buffer first because
  // the count must be written before them.
  const items = new Reply();
  items.proto = out.proto;
  let n = 0;
  for (;;) {
    lua.lua_rawgeti(L, abs, n + 1);
    if (lua.lua_type(L, -1) === lua.LUA_TNIL) {
      lua.lua_pop(L, 1);
      break;
    }
    toReply(L, -1, items);
    lua.lua_pop(L, 1);
    n++;
  }
  out.arr(n);
  out.out += items.take();
}
