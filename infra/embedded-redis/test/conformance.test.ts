// Conformance: the same cases run against the embedded server through raw RESP2/RESP3 sockets and
// ioredis 6 in both protocols, and against the real Redis through the raw sockets; then the two
// servers' typed replies are compared step by step so they cannot drift apart.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startEmbeddedRedis } from '../src/index.ts';
import type { EmbeddedRedis } from '../src/index.ts';
import type { Case, Expect, Step } from './conformance/case-types.ts';
import { stringCases } from './conformance/cases-strings.ts';
import { keyCases } from './conformance/cases-keys.ts';
import { hashCases, listCases, setCases, zsetCases } from './conformance/cases-types.ts';
import { connectionCases, txCases } from './conformance/cases-misc.ts';
import { edgeCases } from './conformance/cases-edge.ts';
import { scriptingCases } from './conformance/cases-scripting.ts';
import { streamCases } from './conformance/cases-streams.ts';
import { PATHS, REAL_PORT, openConn, realRedisReachable, uniquePrefix } from './support/targets.ts';
import type { Conn, Path } from './support/targets.ts';
import { plain } from './support/raw-client.ts';
import type { Plain, Resp } from './support/raw-client.ts';

const CASES: Case[] = [
  ...stringCases,
  ...keyCases,
  ...hashCases,
  ...setCases,
  ...zsetCases,
  ...listCases,
  ...txCases,
  ...connectionCases,
  ...edgeCases,
  ...scriptingCases,
  ...streamCases,
];

const realUp = await realRedisReachable();
let embedded: EmbeddedRedis;
beforeAll(async () => {
  embedded = await startEmbeddedRedis({ port: 0 });
});
afterAll(async () => {
  await embedded?.close();
});

function subst<T>(v: T, prefix: string): T {
  if (typeof v === 'string') return v.split('{k}').join(prefix) as T;
  if (Array.isArray(v)) return v.map((x: unknown) => subst(x, prefix)) as T;
  if (v !== null && typeof v === 'object') {
    return Object.fromEntries(Object.entries(v).map(([k, x]) => [k, subst(x, prefix)])) as T;
  }
  return v;
}

function check(got: Plain, exp: Expect, where: string): void {
  if (exp !== null && typeof exp === 'object' && !Array.isArray(exp)) {
    if ('range' in exp) {
      expect(typeof got, where).toBe('number');
      expect(got as number, where).toBeGreaterThanOrEqual(exp.range[0]);
      expect(got as number, where).toBeLessThanOrEqual(exp.range[1]);
      return;
    }
    if ('any' in exp) return;
    if ('sorted' in exp) {
      expect(Array.isArray(got), where).toBe(true);
      expect([...(got as Plain[])].sort(), where).toEqual([...exp.sorted].sort());
      return;
    }
    if ('errorStartsWith' in exp) {
      expect(got, where).toMatchObject({ error: expect.stringMatching(new RegExp('^' + exp.errorStartsWith)) });
      return;
    }
  }
  expect(got, where).toEqual(exp);
}

async function withConns<T>(port: number, path: Path, fn: (c: (n: 1 | 2) => Promise<Conn>) => Promise<T>): Promise<T> {
  const conns = new Map<number, Conn>();
  const get = async (n: 1 | 2): Promise<Conn> => {
    let c = conns.get(n);
    if (c === undefined) conns.set(n, (c = await openConn(port, path)));
    return c;
  };
  try {
    return await fn(get);
  } finally {
    const c1 = await get(1);
    await c1.call(['SELECT', 13]);
    for (const c of conns.values()) await c.close();
  }
}

async function cleanup(port: number, prefix: string): Promise<void> {
  const c = await openConn(port, 'raw-resp2');
  const keys = (await c.call(['KEYS', prefix.replace(/[*?[\]\\]/g, '\\$&') + '*'])) as string[];
  if (keys.length > 0) await c.call(['DEL', ...keys]);
  await c.call(['SELECT', 12]);
  const k12 = (await c.call(['KEYS', prefix.replace(/[*?[\]\\]/g, '\\$&') + '*'])) as string[];
  if (k12.length > 0) await c.call(['DEL', ...k12]);
  await c.close();
}

async function runSteps(
  port: number,
  path: Path,
  steps: Step[],
  prefix: string,
  onReply: (i: number, step: Step, got: Plain, typed: Resp | undefined) => void,
): Promise<void> {
  await withConns(port, path, async (get) => {
    for (let i = 0; i < steps.length; i++) {
      const step = steps[i]!;
      if (step.sleepMs !== undefined) await new Promise((r) => setTimeout(r, step.sleepMs));
      if (step.cmd === undefined) continue;
      const conn = await get(step.conn ?? 1);
      const args = subst(step.cmd, prefix);
      if (conn.typed !== undefined) {
        const t = await conn.typed(args);
        onReply(i, step, plain(t), t);
      } else onReply(i, step, await conn.call(args), undefined);
    }
  });
}

function defineTarget(label: string, port: () => number, paths: readonly Path[]): void {
  for (const path of paths) {
    describe.concurrent(`${label} via ${path}`, () => {
      for (const cs of CASES) {
        if (cs.rawOnly === true && path.startsWith('ioredis')) continue;
        it(cs.name, async () => {
          const prefix = uniquePrefix(path);
          try {
            await runSteps(port(), path, cs.steps, prefix, (i, step, got) => {
              const exp = path.endsWith('resp3') && step.expect3 !== undefined ? step.expect3 : step.expect;
              if (exp === undefined) return;
              check(got, subst(exp, prefix), `step ${i + 1}: ${step.cmd?.join(' ')}`);
            });
          } finally {
            await cleanup(port(), prefix);
          }
        });
      }
    });
  }
}

defineTarget('embedded server', () => embedded.port, PATHS);

if (realUp) {
  // The real Redis checks the cases' expectations through the raw clients only. Through ioredis it
  // asserted the same again: the typed comparison below proves both servers send the same replies,
  // ioredis turns the same replies into the same values, and the embedded server runs every case
  // through ioredis against the same expectations.
  defineTarget(`real Redis at 127.0.0.1:${REAL_PORT}`, () => REAL_PORT, ['raw-resp2', 'raw-resp3']);

  /** Loose steps (ranges, any, unordered) compare only wire types; everything else exactly. */
  const typesOnly = (r: Resp): unknown => {
    if (r.t === 'array' || r.t === 'set' || r.t === 'push') return { t: r.t, v: r.v.map(typesOnly) };
    return { t: r.t };
  };
  const shape = (r: Resp, e: Expect | undefined): unknown => {
    const loose = e !== null && typeof e === 'object' && !Array.isArray(e) && !('error' in e);
    if (!loose) return r;
    if ('sorted' in e && (r.t === 'array' || r.t === 'set')) {
      return { t: r.t, v: [...r.v].map((x) => JSON.stringify(x)).sort() };
    }
    return typesOnly(r);
  };
  for (const path of ['raw-resp2', 'raw-resp3'] as const) {
    describe.concurrent(`embedded and real Redis send identical typed replies (${path})`, () => {
      for (const cs of CASES) {
        it(cs.name, async () => {
          const traces: unknown[][] = [[], []];
          const ports = [embedded.port, REAL_PORT];
          for (let s = 0; s < 2; s++) {
            const prefix = uniquePrefix(`diff${s}`);
            try {
              await runSteps(ports[s]!, path, cs.steps, prefix, (i, step, _got, typed) => {
                const reply = shape(unprefix(typed as Resp, prefix), step.expect);
                traces[s]!.push({ step: i + 1, cmd: step.cmd?.join(' '), reply });
              });
            } finally {
              await cleanup(ports[s]!, prefix);
            }
          }
          expect(traces[0]).toEqual(traces[1]);
        });
      }
    });
  }
} else {
  describe.skip(`real Redis not reachable at 127.0.0.1:${REAL_PORT} — skipped`, () => {
    it('conformance against real Redis', () => undefined);
  });
}

function unprefix<T>(v: T, prefix: string): T {
  if (typeof v === 'string') return v.split(prefix).join('{k}') as T;
  if (Array.isArray(v)) return v.map((x: unknown) => unprefix(x, prefix)) as T;
  if (v !== null && typeof v === 'object') {
    return Object.fromEntries(Object.entries(v).map(([k, x]) => [k, unprefix(x, prefix)])) as T;
  }
  return v;
}
