import type { Case, Step } from './case-types.ts';
import { NOT_FLOAT, NOT_INT, SYNTAX, WRONGTYPE, arity, err } from './case-types.ts';

export const hashCases: Case[] = [
  {
    name: 'hash commands',
    steps: [
      { cmd: ['HSET', '{k}h', 'a', '1', 'b', '2'], expect: 2 },
      { cmd: ['HSET', '{k}h', 'a', '10', 'c', '3'], expect: 1 },
      { cmd: ['HSET', '{k}h', 'a'], expect: arity('hset') },
      { cmd: ['HSET', '{k}h', 'a', '1', 'b'], expect: arity('hset') },
      { cmd: ['HGET', '{k}h', 'a'], expect: '10' },
      { cmd: ['HGET', '{k}h', 'zz'], expect: null },
      { cmd: ['HGET', '{k}none', 'a'], expect: null },
      { cmd: ['HMGET', '{k}h', 'a', 'zz', 'c'], expect: ['10', null, '3'] },
      { cmd: ['HSETNX', '{k}h', 'a', 'x'], expect: 0 },
      { cmd: ['HSETNX', '{k}h', 'd', '4'], expect: 1 },
      { cmd: ['HLEN', '{k}h'], expect: 4 },
      { cmd: ['HEXISTS', '{k}h', 'd'], expect: 1 },
      { cmd: ['HEXISTS', '{k}h', 'e'], expect: 0 },
      { cmd: ['HKEYS', '{k}h'], expect: ['a', 'b', 'c', 'd'] },
      { cmd: ['HVALS', '{k}h'], expect: ['10', '2', '3', '4'] },
      { cmd: ['HINCRBY', '{k}h', 'a', '5'], expect: 15 },
      { cmd: ['HINCRBY', '{k}h', 'new', '-5'], expect: -5 },
      { cmd: ['HINCRBY', '{k}h', 'a', 'x'], expect: NOT_INT },
      { cmd: ['HSET', '{k}h', 's', 'str'], expect: 1 },
      { cmd: ['HINCRBY', '{k}h', 's', '1'], expect: err('ERR hash value is not an integer') },
      { cmd: ['HDEL', '{k}h', 'a', 'b', 'zz'], expect: 2 },
      { cmd: ['HDEL', '{k}h', 'c', 'd', 'new', 's'], expect: 4 },
      { cmd: ['EXISTS', '{k}h'], expect: 0 },
      { cmd: ['HLEN', '{k}h'], expect: 0 },
      { cmd: ['HKEYS', '{k}h'], expect: [] },
      { cmd: ['SET', '{k}str', 'x'], expect: 'OK' },
      { cmd: ['HGET', '{k}str', 'a'], expect: WRONGTYPE },
      { cmd: ['HSET', '{k}str', 'a', 'b'], expect: WRONGTYPE },
    ],
  },
  {
    name: 'HGETALL (map in RESP3)',
    rawOnly: true,
    steps: [
      { cmd: ['HGETALL', '{k}none'], expect: [] },
      { cmd: ['HSET', '{k}h', 'a', '1', 'b', '2'], expect: 2 },
      { cmd: ['HGETALL', '{k}h'], expect: ['a', '1', 'b', '2'] },
    ],
  },
];

export const setCases: Case[] = [
  {
    name: 'set commands',
    steps: [
      { cmd: ['SADD', '{k}s', 'a', 'b', 'a'], expect: 2 },
      { cmd: ['SADD', '{k}s', 'b', 'c'], expect: 1 },
      { cmd: ['SCARD', '{k}s'], expect: 3 },
      { cmd: ['SISMEMBER', '{k}s', 'a'], expect: 1 },
      { cmd: ['SISMEMBER', '{k}s', 'z'], expect: 0 },
      { cmd: ['SMEMBERS', '{k}s'], expect: { sorted: ['a', 'b', 'c'] } },
      { cmd: ['SREM', '{k}s', 'a', 'z'], expect: 1 },
      { cmd: ['SREM', '{k}s', 'b', 'c'], expect: 2 },
      { cmd: ['EXISTS', '{k}s'], expect: 0 },
      { cmd: ['SMEMBERS', '{k}s'], expect: [] },
      { cmd: ['SCARD', '{k}s'], expect: 0 },
      { cmd: ['SET', '{k}x', '1'], expect: 'OK' },
      { cmd: ['SADD', '{k}x', 'a'], expect: WRONGTYPE },
      { cmd: ['SADD', '{k}x'], expect: arity('sadd') },
      { cmd: ['SADD', '{k}p', 'only'], expect: 1 },
      { cmd: ['SPOP', '{k}p', '5'], expect: ['only'] },
      { cmd: ['EXISTS', '{k}p'], expect: 0 },
      { cmd: ['SPOP', '{k}p'], expect: null },
      { cmd: ['SPOP', '{k}p', '2'], expect: [] },
      { cmd: ['SPOP', '{k}p', '-1'], expect: err('ERR value is out of range, must be positive') },
      { cmd: ['SPOP', '{k}p', '1', '2'], expect: SYNTAX },
      { cmd: ['SADD', '{k}q', 'm1', 'm2'], expect: 2 },
      { cmd: ['SPOP', '{k}q'], expect: { any: true } },
      { cmd: ['SCARD', '{k}q'], expect: 1 },
      { cmd: ['SPOP', '{k}x'], expect: WRONGTYPE },
    ],
  },
];

export const zsetCases: Case[] = [
  {
    name: 'ZADD options, ZSCORE, ZINCRBY, ZCARD',
    steps: [
      { cmd: ['ZADD', '{k}z', '1', 'a', '2', 'b', '3', 'c'], expect: 3 },
      { cmd: ['ZADD', '{k}z', 'NX', '10', 'a', '4', 'd'], expect: 1 },
      { cmd: ['ZSCORE', '{k}z', 'a'], expect: '1' },
      { cmd: ['ZADD', '{k}z', 'XX', '10', 'a', '5', 'e'], expect: 0 },
      { cmd: ['ZSCORE', '{k}z', 'a'], expect: '10' },
      { cmd: ['ZSCORE', '{k}z', 'e'], expect: null },
      { cmd: ['ZADD', '{k}z', 'CH', '11', 'a', '2', 'b', '6', 'f'], expect: 2 },
      { cmd: ['ZADD', '{k}z', 'GT', 'CH', '5', 'a', '20', 'b'], expect: 1 },
      { cmd: ['ZADD', '{k}z', 'LT', 'CH', '1', 'a', '30', 'c'], expect: 1 },
      { cmd: ['ZSCORE', '{k}z', 'a'], expect: '1' },
      { cmd: ['ZADD', '{k}z', 'INCR', '2.5', 'a'], expect: '3.5' },
      { cmd: ['ZADD', '{k}z', 'NX', 'INCR', '1', 'a'], expect: null },
      { cmd: ['ZADD', '{k}z', 'XX', 'INCR', '1', 'zz'], expect: null },
      { cmd: ['ZADD', '{k}z', 'INCR', '1', 'a', '2', 'b'], expect: err('ERR INCR option supports a single increment-element pair') },
      { cmd: ['ZADD', '{k}z', 'NX', 'XX', '1', 'a'], expect: err('ERR XX and NX options at the same time are not compatible') },
      { cmd: ['ZADD', '{k}z', 'NX', 'GT', '1', 'a'], expect: err('ERR GT, LT, and/or NX options at the same time are not compatible') },
      { cmd: ['ZADD', '{k}z', 'abc', 'a'], expect: NOT_FLOAT },
      { cmd: ['ZADD', '{k}z', '1', 'a', '2'], expect: SYNTAX },
      { cmd: ['ZADD', '{k}z', '1'], expect: arity('zadd') },
      { cmd: ['ZINCRBY', '{k}z', '1.1', 'a'], expect: '4.5999999999999996' },
      { cmd: ['ZINCRBY', '{k}z', 'x', 'a'], expect: NOT_FLOAT },
      { cmd: ['ZINCRBY', '{k}new', '5', 'm'], expect: '5' },
      { cmd: ['ZCARD', '{k}z'], expect: 5 },
      { cmd: ['ZCARD', '{k}none'], expect: 0 },
      { cmd: ['ZADD', '{k}inf', '+inf', 'x', '-inf', 'y', '1e3', 'z', '0.1', 'w'], expect: 4 },
      { cmd: ['ZSCORE', '{k}inf', 'x'], expect: 'inf' },
      { cmd: ['ZSCORE', '{k}inf', 'y'], expect: '-inf' },
      { cmd: ['ZSCORE', '{k}inf', 'z'], expect: '1000' },
      { cmd: ['ZSCORE', '{k}inf', 'w'], expect: '0.10000000000000001' },
      { cmd: ['ZADD', '{k}fmt', '0.0001', 'a', '1e-5', 'b', '123456789012345678', 'c', '-2.5e-7', 'd', '3.14159', 'e', '1e17', 'f', '99999999999999999', 'g', '-0.5', 'h'], expect: 8 },
      { cmd: ['ZRANGE', '{k}fmt', '0', '-1', 'WITHSCORES'], expect: ['h', '-0.5', 'd', '-2.4999999999999999e-07', 'b', '1.0000000000000001e-05', 'a', '0.0001', 'e', '3.1415899999999999', 'f', '1e+17', 'g', '1e+17', 'c', '1.2345678901234568e+17'], expect3: [['h', '-0.5'], ['d', '-2.4999999999999999e-07'], ['b', '1.0000000000000001e-05'], ['a', '0.0001'], ['e', '3.1415899999999999'], ['f', '1e+17'], ['g', '1e+17'], ['c', '1.2345678901234568e+17']] },
      { cmd: ['ZINCRBY', '{k}inf', '-inf', 'x'], expect: err('ERR resulting score is not a number (NaN)') },
      { cmd: ['SET', '{k}s', 'x'], expect: 'OK' },
      { cmd: ['ZADD', '{k}s', '1', 'a'], expect: WRONGTYPE },
    ],
  },
  {
    name: 'ZRANGE / ZRANGEBYSCORE / ZREVRANGE / ZCOUNT / ZRANK',
    steps: [
      { cmd: ['ZADD', '{k}z', '1', 'a', '2', 'b', '2', 'bb', '3', 'c', '4', 'd'], expect: 5 },
      { cmd: ['ZRANGE', '{k}z', '0', '-1'], expect: ['a', 'b', 'bb', 'c', 'd'] },
      { cmd: ['ZRANGE', '{k}z', '1', '2'], expect: ['b', 'bb'] },
      { cmd: ['ZRANGE', '{k}z', '-2', '-1'], expect: ['c', 'd'] },
      { cmd: ['ZRANGE', '{k}z', '5', '10'], expect: [] },
      { cmd: ['ZRANGE', '{k}z', '0', '1', 'WITHSCORES'], expect: ['a', '1', 'b', '2'], expect3: [['a', '1'], ['b', '2']] },
      { cmd: ['ZRANGE', '{k}z', '0', '1', 'REV'], expect: ['d', 'c'] },
      { cmd: ['ZRANGE', '{k}z', '2', '3', 'BYSCORE'], expect: ['b', 'bb', 'c'] },
      { cmd: ['ZRANGE', '{k}z', '(2', '+inf', 'BYSCORE'], expect: ['c', 'd'] },
      { cmd: ['ZRANGE', '{k}z', '+inf', '-inf', 'BYSCORE', 'REV', 'LIMIT', '1', '2'], expect: ['c', 'bb'] },
      { cmd: ['ZRANGE', '{k}z', '0', '-1', 'LIMIT', '0', '1'], expect: err('ERR syntax error, LIMIT is only supported in combination with either BYSCORE or BYLEX') },
      { cmd: ['ZRANGE', '{k}z', 'a', 'b'], expect: NOT_INT },
      { cmd: ['ZRANGE', '{k}z', 'a', 'b', 'BYSCORE'], expect: err('ERR min or max is not a float') },
      { cmd: ['ZRANGEBYSCORE', '{k}z', '-inf', '2'], expect: ['a', 'b', 'bb'] },
      { cmd: ['ZRANGEBYSCORE', '{k}z', '-inf', '(2', 'WITHSCORES'], expect: ['a', '1'], expect3: [['a', '1']] },
      { cmd: ['ZRANGEBYSCORE', '{k}z', '1', '4', 'LIMIT', '1', '2'], expect: ['b', 'bb'] },
      { cmd: ['ZRANGEBYSCORE', '{k}z', '1', '4', 'LIMIT', '3', '-1'], expect: ['c', 'd'] },
      { cmd: ['ZREVRANGEBYSCORE', '{k}z', '3', '2'], expect: ['c', 'bb', 'b'] },
      { cmd: ['ZREVRANGE', '{k}z', '0', '1'], expect: ['d', 'c'] },
      { cmd: ['ZREVRANGE', '{k}z', '0', '0', 'WITHSCORES'], expect: ['d', '4'], expect3: [['d', '4']] },
      { cmd: ['ZCOUNT', '{k}z', '2', '3'], expect: 3 },
      { cmd: ['ZCOUNT', '{k}z', '(2', '(4'], expect: 1 },
      { cmd: ['ZCOUNT', '{k}z', 'x', '3'], expect: err('ERR min or max is not a float') },
      { cmd: ['ZRANK', '{k}z', 'c'], expect: 3 },
      { cmd: ['ZRANK', '{k}z', 'zz'], expect: null },
      { cmd: ['ZREVRANK', '{k}z', 'a'], expect: 4 },
      { cmd: ['ZRANGE', '{k}none', '0', '-1'], expect: [] },
    ],
  },
  {
    name: 'ZREM / ZREMRANGEBYSCORE / ZPOPMIN (sliding-window rate limit shape)',
    steps: [
      { cmd: ['ZADD', '{k}w', '100', 'r1', '200', 'r2', '300', 'r3', '400', 'r4'], expect: 4 },
      { cmd: ['ZREMRANGEBYSCORE', '{k}w', '-inf', '(250'], expect: 2 },
      { cmd: ['ZCARD', '{k}w'], expect: 2 },
      { cmd: ['ZREM', '{k}w', 'r3', 'zz'], expect: 1 },
      { cmd: ['ZADD', '{k}w', '50', 'r0'], expect: 1 },
      { cmd: ['ZPOPMIN', '{k}w'], expect: ['r0', '50'] },
      { cmd: ['ZPOPMIN', '{k}w', '5'], expect: ['r4', '400'], expect3: [['r4', '400']] },
      { cmd: ['ZPOPMIN', '{k}w'], expect: [] },
      { cmd: ['EXISTS', '{k}w'], expect: 0 },
      { cmd: ['ZPOPMIN', '{k}w', '-1'], expect: err('ERR value is out of range, must be positive') },
      { cmd: ['ZREMRANGEBYSCORE', '{k}w', 'a', 'b'], expect: err('ERR min or max is not a float') },
    ],
  },
];

export const listCases: Case[] = [
  {
    name: 'list commands',
    steps: [
      { cmd: ['LPUSH', '{k}l', 'a', 'b'], expect: 2 },
      { cmd: ['RPUSH', '{k}l', 'c', 'd'], expect: 4 },
      { cmd: ['LRANGE', '{k}l', '0', '-1'], expect: ['b', 'a', 'c', 'd'] },
      { cmd: ['LRANGE', '{k}l', '-2', '10'], expect: ['c', 'd'] },
      { cmd: ['LRANGE', '{k}l', '3', '1'], expect: [] },
      { cmd: ['LLEN', '{k}l'], expect: 4 },
      { cmd: ['LPOP', '{k}l'], expect: 'b' },
      { cmd: ['RPOP', '{k}l'], expect: 'd' },
      { cmd: ['RPUSH', '{k}l', 'e', 'f', 'g'], expect: 5 },
      { cmd: ['LPOP', '{k}l', '2'], expect: ['a', 'c'] },
      { cmd: ['RPOP', '{k}l', '2'], expect: ['g', 'f'] },
      { cmd: ['LTRIM', '{k}l', '0', '0'], expect: 'OK' },
      { cmd: ['LRANGE', '{k}l', '0', '-1'], expect: ['e'] },
      { cmd: ['LTRIM', '{k}l', '1', '0'], expect: 'OK' },
      { cmd: ['EXISTS', '{k}l'], expect: 0 },
      { cmd: ['LPOP', '{k}l'], expect: null },
      { cmd: ['LPOP', '{k}l', '2'], expect: null },
      { cmd: ['LPOP', '{k}l', '-1'], expect: err('ERR value is out of range, must be positive') },
      { cmd: ['LRANGE', '{k}l', 'a', '1'], expect: NOT_INT },
      { cmd: ['SET', '{k}s', 'x'], expect: 'OK' },
      { cmd: ['LPUSH', '{k}s', 'x'], expect: WRONGTYPE },
      { cmd: ['LLEN', '{k}s'], expect: WRONGTYPE },
    ],
  },
  {
    name: 'list as a queue: both ends, wrap-around growth and shrink, LINDEX, LREM both directions',
    steps: queueSteps(),
  },
];

/**
 * Pushes and pops at both ends in a pattern that makes a ring buffer wrap, grow and shrink,
 * checking the whole list against a plain-array model after every phase (the real Redis checks
 * the model too).
 */
function queueSteps(): Step[] {
  const model: string[] = [];
  const steps: Step[] = [];
  for (let i = 0; i < 150; i++) {
    const v = `v${i % 7}`;
    if (i % 3 === 0) {
      model.unshift(v);
      steps.push({ cmd: ['LPUSH', '{k}q', v], expect: model.length });
    } else {
      model.push(v);
      steps.push({ cmd: ['RPUSH', '{k}q', v], expect: model.length });
    }
    if (i % 5 === 4) steps.push({ cmd: ['LPOP', '{k}q'], expect: model.shift()! });
    if (i % 11 === 10) steps.push({ cmd: ['RPOP', '{k}q'], expect: model.pop()! });
  }
  steps.push({ cmd: ['LRANGE', '{k}q', '0', '-1'], expect: [...model] });
  steps.push({ cmd: ['LINDEX', '{k}q', '-1'], expect: model[model.length - 1]! });
  steps.push({ cmd: ['LINDEX', '{k}q', '37'], expect: model[37]! });
  steps.push({ cmd: ['LINDEX', '{k}q', '1000'], expect: null });
  const drop = (el: string, count: number): number => {
    let n = 0;
    const limit = count === 0 ? Infinity : Math.abs(count);
    for (let j = 0; j < model.length && n < limit; j++) {
      const i = count >= 0 ? j : model.length - 1 - j;
      if (model[i] === el) {
        model.splice(i, 1);
        n++;
        if (count < 0) j--;
      }
    }
    return n;
  };
  steps.push({ cmd: ['LREM', '{k}q', '2', 'v3'], expect: drop('v3', 2) });
  steps.push({ cmd: ['LREM', '{k}q', '-3', 'v4'], expect: drop('v4', -3) });
  steps.push({ cmd: ['LREM', '{k}q', '0', 'v0'], expect: drop('v0', 0) });
  steps.push({ cmd: ['LRANGE', '{k}q', '0', '-1'], expect: [...model] });
  steps.push({ cmd: ['LPOP', '{k}q', '50'], expect: model.splice(0, 50) });
  steps.push({ cmd: ['RPOP', '{k}q', '10'], expect: model.splice(model.length - 10, 10).reverse() });
  steps.push({ cmd: ['LRANGE', '{k}q', '0', '-1'], expect: [...model] });
  steps.push({ cmd: ['LTRIM', '{k}q', '2', '-3'], expect: 'OK' });
  steps.push({ cmd: ['LRANGE', '{k}q', '0', '-1'], expect: model.slice(2, model.length - 2) });
  return steps;
}
