// Keyspace notifications on both servers: the same command sequence must publish the same
// keyspace and keyevent messages, in the same order. On the shared real Redis the setting is
// global, so it is read first and restored afterwards, and only events for this run's keys count.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startEmbeddedRedis } from '../src/index.ts';
import type { EmbeddedRedis } from '../src/index.ts';
import { RawClient, plain } from './support/raw-client.ts';
import type { Plain } from './support/raw-client.ts';
import { REAL_PORT, TEST_DB, realRedisReachable, uniquePrefix } from './support/targets.ts';

const realUp = await realRedisReachable();
let embedded: EmbeddedRedis;
beforeAll(async () => {
  embedded = await startEmbeddedRedis({ port: 0 });
});
afterAll(async () => {
  await embedded?.close();
});

/** `{k}` in an argument is replaced by this run's key prefix. */
type Step = { cmd: string[]; sleepMs?: number };
/** [event, key suffix] in the order Redis publishes them. */
type Ev = [string, string];

const STEPS: [Step, Ev[]][] = [
  [{ cmd: ['SET', '{k}s', '1'] }, [['set', 's']]],
  [{ cmd: ['SET', '{k}s', '2', 'EX', '100'] }, [['set', 's'], ['expire', 's']]],
  [{ cmd: ['SET', '{k}s', '3', 'NX'] }, []],
  [{ cmd: ['INCRBY', '{k}n', '5'] }, [['incrby', 'n']]],
  [{ cmd: ['INCR', '{k}n'] }, [['incrby', 'n']]],
  [{ cmd: ['INCRBYFLOAT', '{k}n', '1.5'] }, [['incrbyfloat', 'n']]],
  [{ cmd: ['APPEND', '{k}s', 'x'] }, [['append', 's']]],
  [{ cmd: ['GETSET', '{k}s', 'y'] }, [['set', 's']]],
  [{ cmd: ['GETEX', '{k}s', 'EX', '50'] }, [['expire', 's']]],
  [{ cmd: ['GETEX', '{k}s', 'PERSIST'] }, [['persist', 's']]],
  [{ cmd: ['EXPIRE', '{k}n', '100'] }, [['expire', 'n']]],
  [{ cmd: ['EXPIRE', '{k}n', '100', 'NX'] }, []],
  [{ cmd: ['PERSIST', '{k}n'] }, [['persist', 'n']]],
  [{ cmd: ['PERSIST', '{k}n'] }, []],
  [{ cmd: ['RENAME', '{k}n', '{k}n2'] }, [['rename_from', 'n'], ['rename_to', 'n2']]],
  [{ cmd: ['DEL', '{k}n2', 'missing'] }, [['del', 'n2']]],
  [{ cmd: ['MSET', '{k}a', '1', '{k}b', '2'] }, [['set', 'a'], ['set', 'b']]],
  [{ cmd: ['MSETNX', '{k}a', '1', '{k}c', '2'] }, []],
  [{ cmd: ['GETDEL', '{k}a'] }, [['del', 'a']]],
  [{ cmd: ['SETEX', '{k}e', '100', 'v'] }, [['set', 'e'], ['expire', 'e']]],
  [{ cmd: ['EXPIRE', '{k}e', '0'] }, [['del', 'e']]],
  [{ cmd: ['SETNX', '{k}sn', 'v'] }, [['set', 'sn']]],
  [{ cmd: ['HSET', '{k}h', 'f', 'v'] }, [['hset', 'h']]],
  [{ cmd: ['HSETNX', '{k}h', 'f', 'v'] }, []],
  [{ cmd: ['HINCRBY', '{k}h', 'n', '1'] }, [['hincrby', 'h']]],
  [{ cmd: ['HDEL', '{k}h', 'f', 'n'] }, [['hdel', 'h'], ['del', 'h']]],
  [{ cmd: ['SADD', '{k}set', 'a', 'b'] }, [['sadd', 'set']]],
  [{ cmd: ['SADD', '{k}set', 'a'] }, []],
  [{ cmd: ['SREM', '{k}set', 'a'] }, [['srem', 'set']]],
  [{ cmd: ['SPOP', '{k}set'] }, [['spop', 'set'], ['del', 'set']]],
  [{ cmd: ['ZADD', '{k}z', '1', 'a'] }, [['zadd', 'z']]],
  [{ cmd: ['ZADD', '{k}z', '1', 'a'] }, []],
  [{ cmd: ['ZINCRBY', '{k}z', '1', 'a'] }, [['zincr', 'z']]],
  [{ cmd: ['ZADD', '{k}z', 'INCR', '1', 'a'] }, [['zincr', 'z']]],
  [{ cmd: ['ZREM', '{k}z', 'x'] }, []],
  [{ cmd: ['ZADD', '{k}z', '5', 'b'] }, [['zadd', 'z']]],
  [{ cmd: ['ZREMRANGEBYSCORE', '{k}z', '5', '5'] }, [['zremrangebyscore', 'z']]],
  [{ cmd: ['ZPOPMIN', '{k}z'] }, [['zpopmin', 'z'], ['del', 'z']]],
  [{ cmd: ['RPUSH', '{k}l', 'a', 'b', 'c'] }, [['rpush', 'l']]],
  [{ cmd: ['LPUSH', '{k}l', 'z'] }, [['lpush', 'l']]],
  [{ cmd: ['LPOP', '{k}l'] }, [['lpop', 'l']]],
  [{ cmd: ['RPOP', '{k}l', '2'] }, [['rpop', 'l']]],
  [{ cmd: ['LREM', '{k}l', '0', 'nothing'] }, []],
  [{ cmd: ['LTRIM', '{k}l', '0', '0'] }, [['ltrim', 'l']]],
  [{ cmd: ['LPOP', '{k}l'] }, [['lpop', 'l'], ['del', 'l']]],
  [{ cmd: ['SET', '{k}x', 'v', 'PX', '50'] }, [['set', 'x'], ['expire', 'x']]],
  // Reclaimed by active expiry or by this GET, whichever comes first: one 'expired' either way.
  [{ cmd: ['GET', '{k}x'], sleepMs: 250 }, [['expired', 'x']]],
  [{ cmd: ['SET', '{k}past', 'v', 'PXAT', '1'] }, [['set', 'past'], ['expire', 'past']]],
  [{ cmd: ['EXISTS', '{k}past'] }, [['expired', 'past']]],
  [{ cmd: ['SET', '{k}end', 'marker'] }, [['set', 'end']]],
];

const STREAM_STEPS: [Step, Ev[]][] = [
  [{ cmd: ['XADD', '{k}st', '1-1', 'a', '1'] }, [['xadd', 'st']]],
  [{ cmd: ['XGROUP', 'CREATE', '{k}st', 'g', '0'] }, [['xgroup-create', 'st']]],
  [{ cmd: ['XREADGROUP', 'GROUP', 'g', 'c1', 'STREAMS', '{k}st', '>'] }, [['xgroup-createconsumer', 'st']]],
  [{ cmd: ['XREADGROUP', 'GROUP', 'g', 'c1', 'STREAMS', '{k}st', '>'] }, []],
  [{ cmd: ['XACK', '{k}st', 'g', '1-1'] }, []],
  [{ cmd: ['XRANGE', '{k}st', '-', '+'] }, []],
  [{ cmd: ['XADD', '{k}st', 'MAXLEN', '1', '2-1', 'b', '2'] }, [['xadd', 'st'], ['xtrim', 'st']]],
  [{ cmd: ['SET', '{k}end', 'marker'] }, []],
  [{ cmd: ['XADD', '{k}end2', '1-1', 'a', '1'] }, [['xadd', 'end2']]],
];

async function runAndCollect(port: number, flags: string, steps: [Step, Ev[]][] = STEPS): Promise<{ events: string[]; replies: Plain[] }> {
  const prefix = uniquePrefix('notify');
  const sub = await RawClient.connect(port);
  const c = await RawClient.connect(port);
  await c.call('SELECT', TEST_DB);
  const before = plain(await c.call('CONFIG', 'GET', 'notify-keyspace-events')) as string[];
  sub.subscriberMode = true;
  await sub.sendRaw(`PSUBSCRIBE __keyspace@${TEST_DB}__:${prefix}* __keyevent@${TEST_DB}__:*\r\n`, 0);
  await sub.waitPushes(2);
  const replies: Plain[] = [];
  try {
    expect(plain(await c.call('CONFIG', 'SET', 'notify-keyspace-events', flags))).toBe('OK');
    for (const [step] of steps) {
      if (step.sleepMs !== undefined) await new Promise((r) => setTimeout(r, step.sleepMs));
      replies.push(plain(await c.call(...step.cmd.map((a) => a.replace('{k}', prefix)))));
    }
    const events: string[] = [];
    const until = Date.now() + 3000;
    while (!events.some((e) => e.endsWith(' set end') || e.endsWith(' xadd end2')) && Date.now() < until) {
      for (const m of await sub.waitPushes(1, 200)) {
        const [, , ch, msg] = plain(m) as string[];
        if (ch!.startsWith('__keyspace@')) events.push(`ks ${msg!} ${ch!.slice(ch!.indexOf(':') + 1 + prefix.length)}`);
        else if (msg!.startsWith(prefix)) events.push(`ke ${ch!.slice(ch!.indexOf(':') + 1)} ${msg!.slice(prefix.length)}`);
      }
    }
    return { events, replies };
  } finally {
    await c.call('CONFIG', 'SET', 'notify-keyspace-events', before[1]!);
    sub.close();
    const keys = plain(await c.call('KEYS', prefix.replace(/[*?[\]\\]/g, '\\$&') + '*')) as string[];
    if (keys.length > 0) await c.call('DEL', ...keys);
    c.close();
  }
}

function expectedEvents(flags: 'K' | 'E' | 'KE', steps: [Step, Ev[]][] = STEPS): string[] {
  const out: string[] = [];
  for (const [, evs] of steps) {
    for (const [ev, key] of evs) {
      if (flags.includes('K')) out.push(`ks ${ev} ${key}`);
      if (flags.includes('E')) out.push(`ke ${ev} ${key}`);
    }
  }
  return out;
}

function suite(label: string, port: () => number): void {
  describe(label, () => {
    it('KEA: every step publishes Redis 7.0 events, keyspace before keyevent, in command order', async () => {
      const { events } = await runAndCollect(port(), 'KEA');
      expect(events).toEqual(expectedEvents('KE'));
    });

    it('Eg$lshzx (keyevent only, the classes implemented listed one by one)', async () => {
      const { events } = await runAndCollect(port(), 'Eg$lshzx');
      expect(events).toEqual(expectedEvents('E'));
    });

    it('Kx$: only expired and string events, on the keyspace channel', async () => {
      const { events } = await runAndCollect(port(), 'Kx$');
      const classX = new Set(['expired']);
      const strings = new Set(['set', 'incrby', 'incrbyfloat', 'append']);
      expect(events).toEqual(expectedEvents('K').filter((e) => classX.has(e.split(' ')[1]!) || strings.has(e.split(' ')[1]!)));
    });

    it('KEt: stream events (xadd, xtrim, xgroup-create, xgroup-createconsumer), none for reads and XACK', async () => {
      const { events } = await runAndCollect(port(), 'KEt', STREAM_STEPS);
      expect(events).toEqual(expectedEvents('KE', STREAM_STEPS));
    });

    it('CONFIG GET shows the canonical flag string; a bad class character is refused', async () => {
      const c = await RawClient.connect(port());
      const before = plain(await c.call('CONFIG', 'GET', 'notify-keyspace-events')) as string[];
      try {
        const got: Plain[] = [];
        for (const f of ['Exg$', 'KEA', 'AK', 'x', 'lz']) {
          await c.call('CONFIG', 'SET', 'notify-keyspace-events', f);
          got.push(plain(await c.call('CONFIG', 'GET', 'notify-keyspace-events')));
        }
        expect(got).toEqual([
          ['notify-keyspace-events', 'g$xE'],
          ['notify-keyspace-events', 'AKE'],
          ['notify-keyspace-events', 'AK'],
          ['notify-keyspace-events', 'x'],
          ['notify-keyspace-events', 'lz'],
        ]);
        expect(plain(await c.call('CONFIG', 'SET', 'notify-keyspace-events', 'KQ'))).toEqual({
          error:
            "ERR CONFIG SET failed (possibly related to argument 'notify-keyspace-events') - Invalid event class character. Use 'Ag$lshzxeKEtmdn'.",
        });
        // Refused as a whole: the value is unchanged.
        expect(plain(await c.call('CONFIG', 'GET', 'notify-keyspace-events'))).toEqual(['notify-keyspace-events', 'lz']);
      } finally {
        await c.call('CONFIG', 'SET', 'notify-keyspace-events', before[1]!);
        c.close();
      }
    });
  });
}

suite('embedded', () => embedded.port);
if (realUp) suite(`real Redis at 127.0.0.1:${REAL_PORT}`, () => REAL_PORT);
else describe.skip(`real Redis not reachable at 127.0.0.1:${REAL_PORT} — real-Redis comparisons in this file are skipped`, () => undefined);

describe('embedded only', () => {
  it('refuses key-miss (m) and new-key (n) events, which it does not generate', async () => {
    const c = await RawClient.connect(embedded.port);
    for (const f of ['KEm', 'En']) {
      expect(plain(await c.call('CONFIG', 'SET', 'notify-keyspace-events', f))).toEqual({
        error: `ERR CONFIG SET failed (possibly related to argument 'notify-keyspace-events') - the embedded server does not implement '${f.slice(-1)}' (${f.endsWith('m') ? 'key-miss' : 'new-key'}) events`,
      });
    }
    expect(plain(await c.call('CONFIG', 'GET', 'notify-keyspace-events'))).toEqual(['notify-keyspace-events', '']);
    c.close();
  });
});
