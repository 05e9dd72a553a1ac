import { createHash } from 'node:crypto';
import type { Case } from './case-types.ts';
import { NOT_INT, err } from './case-types.ts';

const sha = (body: string): string => createHash('sha1').update(body).digest('hex');
/** The error Redis 7.0 gives for a script that raised an error at `line`. */
const scriptErr = (msg: string, body: string, line = 1): ReturnType<typeof err> => err(`${msg} script: ${sha(body)}, on @user_script:${line}.`);

const INCR = "return redis.call('incr', KEYS[1])";
const BOOM = "error('boom')";
const CUSTOM = "error({err='MYERR custom'})";
const LINE3 = "local a = 1\nlocal b = 2\nreturn redis.call('nosuch')";
const ARITY = "return redis.call('get')";
const NOSCRIPT = "return redis.call('multi')";
const BADARG = "return redis.call('get', {})";
const SETG = 'x = 1';
const GETG = 'return y';
const NOARGS = 'return redis.call()';
const BADLOG = "redis.log(9, 'x')";
const SHORTLOG = "redis.log(redis.LOG_NOTICE)";

export const scriptingCases: Case[] = [
  {
    name: 'EVAL: Lua → reply conversions (numbers truncate, false → nil, arrays stop at nil, ok/err tables)',
    steps: [
      { cmd: ['EVAL', "return {1,2,{3,'x'},nil,5}", '0'], expect: [1, 2, [3, 'x']] },
      { cmd: ['EVAL', "return {3.99, -2.5, true, false, 'a'}", '0'], expect: [3, -2, 1, null, 'a'] },
      { cmd: ['EVAL', 'return -0.5', '0'], expect: 0 },
      { cmd: ['EVAL', 'return nil', '0'], expect: null },
      { cmd: ['EVAL', 'return {}', '0'], expect: [] },
      { cmd: ['EVAL', "return redis.status_reply('FINE')", '0'], expect: 'FINE' },
      { cmd: ['EVAL', "return {ok='fine too'}", '0'], expect: 'fine too' },
      { cmd: ['EVAL', "return {err='plain'}", '0'], expect: err('plain') },
      { cmd: ['EVAL', "return redis.error_reply('My Error')", '0'], expect: err('My Error') },
      { cmd: ['EVAL', "return {1, {err='nested'}, 'x'}", '0'], expect: [1, err('nested'), 'x'] },
      { cmd: ['EVAL', 'return {KEYS[1], ARGV[1], #KEYS, #ARGV}', '2', '{k}a', '{k}b', 'x'], expect: ['{k}a', 'x', 2, 1] },
    ],
  },
  {
    name: 'EVAL: Lua 5.1 numbers (doubles, printed with %.14g), arguments formatted like Redis',
    steps: [
      { cmd: ['EVAL', "return tostring(10/2) .. ' ' .. tostring(0.5) .. ' ' .. (7/2) .. ' ' .. 1e15 .. ' ' .. 2^53", '0'], expect: '5 0.5 3.5 1e+15 9.007199254741e+15' },
      { cmd: ['EVAL', 'return 2147483647 + 1', '0'], expect: 2147483648 },
      { cmd: ['EVAL', 'return 100000 * 100000', '0'], expect: 10000000000 },
      { cmd: ['EVAL', "local t = redis.call('TIME'); return (t[1] * 1000) % 1000", '0'], expect: 0 },
      { cmd: ['EVAL', "return math.floor(7.9) .. '|' .. math.ceil(7.1) .. '|' .. tonumber('12') .. '|' .. tonumber('1.50')", '0'], expect: '7|8|12|1.5' },
      { cmd: ['EVAL', "return redis.call('set', KEYS[1], 0.1)", '1', '{k}n'], expect: 'OK' },
      { cmd: ['GET', '{k}n'], expect: '0.10000000000000001' },
      { cmd: ['EVAL', "return redis.call('set', KEYS[1], 3.0)", '1', '{k}n'], expect: 'OK' },
      { cmd: ['GET', '{k}n'], expect: '3' },
      { cmd: ['EVAL', "return redis.call('set', KEYS[1], 10/3)", '1', '{k}n'], expect: 'OK' },
      { cmd: ['GET', '{k}n'], expect: '3.3333333333333335' },
    ],
  },
  {
    name: 'EVAL: redis.call replies → Lua (integer, bulk, nil → false, status table, arrays)',
    steps: [
      { cmd: ['EVAL', "return type(redis.call('get', KEYS[1]))", '1', '{k}none'], expect: 'boolean' },
      { cmd: ['EVAL', "return redis.call('get', KEYS[1])", '1', '{k}none'], expect: null },
      { cmd: ['EVAL', "local r = redis.call('set', KEYS[1], 'v'); return r.ok", '1', '{k}s'], expect: 'OK' },
      { cmd: ['EVAL', "return redis.call('set', KEYS[1], 'v')", '1', '{k}s'], expect: 'OK' },
      { cmd: ['EVAL', "return redis.call('incrby', KEYS[1], 5) + 1", '1', '{k}c'], expect: 6 },
      { cmd: ['HSET', '{k}h', 'f1', 'a', 'f2', 'b'], expect: 2 },
      { cmd: ['EVAL', "return redis.call('hgetall', KEYS[1])", '1', '{k}h'], expect: ['f1', 'a', 'f2', 'b'] },
      { cmd: ['EVAL', "return redis.call('hmget', KEYS[1], 'f1', 'zz')", '1', '{k}h'], expect: ['a', null] },
      { cmd: ['ZADD', '{k}z', '1.5', 'm'], expect: 1 },
      { cmd: ['EVAL', "return redis.call('zscore', KEYS[1], 'm')", '1', '{k}z'], expect: '1.5' },
      { cmd: ['EVAL', "return redis.call('del', unpack(KEYS))", '3', '{k}s', '{k}c', '{k}nothing'], expect: 2 },
      { cmd: ['EVAL', "redis.call('select', 12); redis.call('set', KEYS[1], 'in12'); return redis.call('get', KEYS[1])", '1', '{k}db'], expect: 'in12' },
      { cmd: ['EXISTS', '{k}db'], expect: 0 },
    ],
  },
  {
    name: 'EVAL: errors — raised by redis.call (with script and line), caught by pcall, error(), argument checks',
    steps: [
      { cmd: ['SET', '{k}str', 'x'], expect: 'OK' },
      { cmd: ['EVAL', INCR, '1', '{k}str'], expect: scriptErr('ERR value is not an integer or out of range', INCR) },
      { cmd: ['EVAL', "return redis.pcall('incr', KEYS[1])", '1', '{k}str'], expect: NOT_INT },
      { cmd: ['EVAL', "local r = redis.pcall('incr', KEYS[1]); return type(r) .. ':' .. r.err", '1', '{k}str'], expect: 'table:ERR value is not an integer or out of range' },
      { cmd: ['EVAL', BOOM, '0'], expect: scriptErr('ERR user_script:1: boom', BOOM) },
      { cmd: ['EVAL', "local ok, e = pcall(function() error('inner') end) return {tostring(ok), e}", '0'], expect: ['false', 'user_script:1: inner'] },
      { cmd: ['EVAL', "return {xpcall(function() error({code=1}) end, function(e) return 'handled ' .. e.code end)}", '0'], expect: [null, 'handled 1'] },
      { cmd: ['EVAL', "return {pcall(function(a, b) return a + b, 'two' end, 1, 2)}", '0'], expect: [1, 3, 'two'] },
      { cmd: ['EVAL', CUSTOM, '0'], expect: scriptErr('MYERR custom', CUSTOM) },
      { cmd: ['EVAL', LINE3, '0'], expect: scriptErr('ERR Unknown Redis command called from script', LINE3, 3) },
      { cmd: ['EVAL', ARITY, '0'], expect: scriptErr('ERR Wrong number of args calling Redis command from script', ARITY) },
      { cmd: ['EVAL', NOSCRIPT, '0'], expect: scriptErr('ERR This Redis command is not allowed from script', NOSCRIPT) },
      { cmd: ['EVAL', BADARG, '0'], expect: scriptErr('ERR Lua redis lib command arguments must be strings or integers', BADARG) },
      { cmd: ['EVAL', NOARGS, '0'], expect: scriptErr('ERR Please specify at least one argument for this redis lib call', NOARGS) },
      { cmd: ['EVAL', "redis.log(redis.LOG_WARNING, 'conformance', 'check'); return 1", '0'], expect: 1 },
      { cmd: ['EVAL', BADLOG, '0'], expect: scriptErr('ERR Invalid debug level.', BADLOG) },
      { cmd: ['EVAL', SHORTLOG, '0'], expect: scriptErr('ERR redis.log() requires two arguments or more.', SHORTLOG) },
      { cmd: ['EVAL', SETG, '0'], expect: scriptErr('ERR user_script:1: Attempt to modify a readonly table', SETG) },
      { cmd: ['EVAL', GETG, '0'], expect: scriptErr("ERR user_script:1: Script attempted to access nonexistent global variable 'y'", GETG) },
      { cmd: ['EVAL', 'return 1 +', '0'], expect: err("ERR Error compiling script (new function): user_script:1: unexpected symbol near '<eof>'") },
      { cmd: ['EVAL', 'return 1', '-1'], expect: err("ERR Number of keys can't be negative") },
      { cmd: ['EVAL', 'return 1', '2', 'a'], expect: err("ERR Number of keys can't be greater than number of args") },
      { cmd: ['EVAL', 'return 1', 'x'], expect: NOT_INT },
      { cmd: ['EVAL', 'return 1'], expect: err("ERR wrong number of arguments for 'eval' command") },
      { cmd: ['EVALSHA', 'ffffffffffffffffffffffffffffffffffffffff', '0'], expect: err('NOSCRIPT No matching script. Please use EVAL.') },
      { cmd: ['EVALSHA', 'abc', '0'], expect: err('NOSCRIPT No matching script. Please use EVAL.') },
      { cmd: ['SCRIPT', 'BOGUS'], expect: err("ERR unknown subcommand 'BOGUS'. Try SCRIPT HELP.") },
      { cmd: ['SCRIPT', 'KILL'], expect: err('NOTBUSY No scripts in execution right now.') },
      { cmd: ['SCRIPT', 'FLUSH', 'NOW'], expect: err('ERR SCRIPT FLUSH only support SYNC|ASYNC option') },
    ],
  },
];
