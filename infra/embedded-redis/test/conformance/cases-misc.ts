import type { Case } from './case-types.ts';
import { NOT_INT, SYNTAX, WRONGTYPE, arity, err } from './case-types.ts';

export const txCases: Case[] = [
  {
    name: 'MULTI / EXEC with queued replies and a runtime error inside',
    steps: [
      { cmd: ['MULTI'], expect: 'OK' },
      { cmd: ['SET', '{k}a', '1'], expect: 'QUEUED' },
      { cmd: ['INCR', '{k}a'], expect: 'QUEUED' },
      { cmd: ['HSET', '{k}a', 'f', 'v'], expect: 'QUEUED' },
      { cmd: ['GET', '{k}a'], expect: 'QUEUED' },
      { cmd: ['EXEC'], expect: ['OK', 2, WRONGTYPE, '2'] },
      { cmd: ['EXEC'], expect: err('ERR EXEC without MULTI') },
      { cmd: ['DISCARD'], expect: err('ERR DISCARD without MULTI') },
    ],
  },
  {
    name: 'queued command errors abort with EXECABORT',
    steps: [
      { cmd: ['MULTI'], expect: 'OK' },
      { cmd: ['SET', '{k}a', '1'], expect: 'QUEUED' },
      { cmd: ['NOSUCHCMD', 'x'], expect: err("ERR unknown command 'NOSUCHCMD', with args beginning with: 'x' ") },
      { cmd: ['GET'], expect: arity('get') },
      { cmd: ['EXEC'], expect: err('EXECABORT Transaction discarded because of previous errors.') },
      { cmd: ['GET', '{k}a'], expect: null },
    ],
  },
  {
    name: 'DISCARD, nested MULTI and WATCH inside MULTI',
    steps: [
      { cmd: ['MULTI'], expect: 'OK' },
      { cmd: ['MULTI'], expect: err('ERR MULTI calls can not be nested') },
      { cmd: ['WATCH', '{k}a'], expect: err('ERR WATCH inside MULTI is not allowed') },
      { cmd: ['SET', '{k}a', '1'], expect: 'QUEUED' },
      { cmd: ['DISCARD'], expect: 'OK' },
      { cmd: ['GET', '{k}a'], expect: null },
      { cmd: ['MULTI'], expect: 'OK' },
      { cmd: ['SET', '{k}a', '2'], expect: 'QUEUED' },
      { cmd: ['EXEC'], expect: ['OK'] },
      { cmd: ['GET', '{k}a'], expect: '2' },
    ],
  },
  {
    name: 'WATCH: a write from another connection aborts EXEC with a null reply',
    steps: [
      { cmd: ['SET', '{k}bal', '100'], expect: 'OK' },
      { cmd: ['WATCH', '{k}bal'], expect: 'OK' },
      { cmd: ['SET', '{k}bal', '50'], expect: 'OK', conn: 2 },
      { cmd: ['MULTI'], expect: 'OK' },
      { cmd: ['DECRBY', '{k}bal', '10'], expect: 'QUEUED' },
      { cmd: ['EXEC'], expect: null },
      { cmd: ['GET', '{k}bal'], expect: '50' },
      { cmd: ['WATCH', '{k}bal'], expect: 'OK' },
      { cmd: ['GET', '{k}bal'], expect: '50', conn: 2 },
      { cmd: ['MULTI'], expect: 'OK' },
      { cmd: ['DECRBY', '{k}bal', '10'], expect: 'QUEUED' },
      { cmd: ['EXEC'], expect: [40] },
      { cmd: ['WATCH', '{k}bal'], expect: 'OK' },
      { cmd: ['UNWATCH'], expect: 'OK' },
      { cmd: ['SET', '{k}bal', '1'], expect: 'OK', conn: 2 },
      { cmd: ['MULTI'], expect: 'OK' },
      { cmd: ['GET', '{k}bal'], expect: 'QUEUED' },
      { cmd: ['EXEC'], expect: ['1'] },
    ],
  },
  {
    name: 'WATCH: the watched key expiring aborts EXEC',
    steps: [
      { cmd: ['SET', '{k}lock', 'me', 'PX', '300'], expect: 'OK' },
      { cmd: ['WATCH', '{k}lock'], expect: 'OK' },
      { cmd: ['MULTI'], expect: 'OK', sleepMs: 500 },
      { cmd: ['SET', '{k}lock', 'other'], expect: 'QUEUED' },
      { cmd: ['EXEC'], expect: null },
    ],
  },
];

export const connectionCases: Case[] = [
  {
    name: 'PING / ECHO / unknown commands / arity',
    steps: [
      { cmd: ['PING'], expect: 'PONG' },
      { cmd: ['ping', 'hi there'], expect: 'hi there' },
      { cmd: ['PING', 'a', 'b'], expect: arity('ping') },
      { cmd: ['ECHO', 'x'], expect: 'x' },
      { cmd: ['ECHO'], expect: arity('echo') },
      { cmd: ['FOOBAR'], expect: err("ERR unknown command 'FOOBAR', with args beginning with: ") },
      { cmd: ['foobar', 'a', 'b c'], expect: err("ERR unknown command 'foobar', with args beginning with: 'a' 'b c' ") },
      { cmd: ['GeT', '{k}x'], expect: null },
      { cmd: ['GET', '{k}a', '{k}b'], expect: arity('get') },
    ],
  },
  {
    name: 'AUTH with no password configured',
    steps: [
      { cmd: ['AUTH', 'secret'], expect: err('ERR AUTH <password> called without any password configured for the default user. Are you sure your configuration is correct?') },
      { cmd: ['AUTH', 'default', 'anything'], expect: 'OK' },
      { cmd: ['AUTH', 'bob', 'x'], expect: err('WRONGPASS invalid username-password pair or user is disabled.') },
      { cmd: ['HELLO', '2', 'AUTH', 'bob', 'x'], expect: err('WRONGPASS invalid username-password pair or user is disabled.') },
      { cmd: ['AUTH', 'a', 'b', 'c'], expect: SYNTAX },
    ],
  },
  {
    name: 'SELECT keeps databases apart',
    steps: [
      { cmd: ['SET', '{k}a', 'db13'], expect: 'OK' },
      { cmd: ['SELECT', '12'], expect: 'OK' },
      { cmd: ['GET', '{k}a'], expect: null },
      { cmd: ['SELECT', '13'], expect: 'OK' },
      { cmd: ['GET', '{k}a'], expect: 'db13' },
      { cmd: ['SELECT', '16'], expect: err('ERR DB index is out of range') },
      { cmd: ['SELECT', '-1'], expect: err('ERR DB index is out of range') },
      { cmd: ['SELECT', 'x'], expect: NOT_INT },
    ],
  },
  {
    name: 'CLIENT SETNAME / GETNAME / ID and errors',
    steps: [
      { cmd: ['CLIENT', 'GETNAME'], expect: null },
      { cmd: ['CLIENT', 'SETNAME', 'svc-order'], expect: 'OK' },
      { cmd: ['CLIENT', 'GETNAME'], expect: 'svc-order' },
      { cmd: ['CLIENT', 'SETNAME', 'has space'], expect: err('ERR Client names cannot contain spaces, newlines or special characters.') },
      { cmd: ['CLIENT', 'SETNAME'], expect: arity('client|setname') },
      { cmd: ['CLIENT', 'ID'], expect: { range: [1, 1e12] } },
      { cmd: ['CLIENT', 'NOPE'], expect: err("ERR unknown subcommand 'NOPE'. Try CLIENT HELP.") },
      { cmd: ['CLIENT'], expect: arity('client') },
    ],
  },
  {
    name: 'HELLO errors, CONFIG GET, TIME, DBSIZE shapes',
    steps: [
      { cmd: ['HELLO', '4'], expect: err('NOPROTO unsupported protocol version') },
      { cmd: ['HELLO', 'x'], expect: err('ERR Protocol version is not an integer or out of range') },
      { cmd: ['CONFIG', 'GET', 'appendonly'], expect: ['appendonly', 'no'] },
      { cmd: ['CONFIG', 'GET', 'no-such-param'], expect: [] },
      { cmd: ['TIME'], expect: { any: true } },
      { cmd: ['DBSIZE'], expect: { range: [0, 1e9] } },
    ],
  },
];
