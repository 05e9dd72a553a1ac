// Types for the part of fengari (a Lua 5.3 VM in JavaScript, no published typings) this server
// uses: the C-API mirror, and the number conversions in lobject that src/lua/numbers.ts adjusts.
declare module 'fengari' {
  export type LuaState = { readonly __luaState: unique symbol };
  type S = LuaState;
  type Str = Uint8Array;
  type JsFn = (L: S) => number;
  const fengari: {
    lua: {
      LUA_OK: number;
      LUA_TNIL: number;
      LUA_TBOOLEAN: number;
      LUA_TNUMBER: number;
      LUA_TSTRING: number;
      LUA_TTABLE: number;
      LUA_REGISTRYINDEX: number;
      LUA_RIDX_GLOBALS: number;
      lua_gettop(L: S): number;
      lua_settop(L: S, idx: number): void;
      lua_pop(L: S, n: number): void;
      lua_type(L: S, idx: number): number;
      lua_isinteger(L: S, idx: number): boolean;
      lua_tonumber(L: S, idx: number): number;
      lua_toboolean(L: S, idx: number): boolean;
      lua_tolstring(L: S, idx: number): Str | null;
      lua_pushnumber(L: S, n: number): void;
      lua_pushinteger(L: S, n: number): void;
      lua_pushboolean(L: S, b: boolean): void;
      lua_pushstring(L: S, s: Str): void;
      lua_pushnil(L: S): void;
      lua_pushvalue(L: S, idx: number): void;
      lua_pushjsfunction(L: S, f: JsFn): void;
      lua_createtable(L: S, narr: number, nrec: number): void;
      lua_setfield(L: S, idx: number, k: Str): void;
      lua_getfield(L: S, idx: number, k: Str): number;
      lua_rawseti(L: S, idx: number, n: number): void;
      lua_rawgeti(L: S, idx: number, n: number): number;
      lua_rawset(L: S, idx: number): void;
      lua_setglobal(L: S, name: Str): void;
      lua_setupvalue(L: S, funcIdx: number, n: number): Str | null;
      lua_pcall(L: S, nargs: number, nresults: number, msgh: number): number;
      lua_error(L: S): never;
      LUA_MASKCOUNT: number;
      lua_sethook(L: S, f: ((L: S) => void) | null, mask: number, count: number): void;
    };
    lauxlib: {
      luaL_newstate(): S;
      luaL_loadbuffer(L: S, buf: Str, sz: number | null, name: Str): number;
      luaL_ref(L: S, t: number): number;
    };
    lualib: {
      luaL_openlibs(L: S): void;
    };
    to_luastring(s: string): Str;
  };
  export default fengari;
}

declare module 'fengari/src/lobject.js' {
  export interface TValue {
    value: number;
    ttisinteger(): boolean;
    setfltvalue(x: number): void;
    setsvalue(x: unknown): void;
  }
  const lobject: {
    luaO_str2num(s: Uint8Array, o: TValue): number;
    luaO_tostring(L: unknown, obj: TValue): void;
  };
  export default lobject;
}

declare module 'fengari/src/lstring.js' {
  const lstring: { luaS_bless(L: unknown, s: Uint8Array): unknown };
  export default lstring;
}
