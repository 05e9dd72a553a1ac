// Where tests find servers: a freshly started embedded server and the real Redis at 6379.
import net from 'node:net';
import { Redis } from 'ioredis';
import { RawClient } from './raw-client.ts';
import type { Plain, Resp } from './raw-client.ts';
import { plain } from './raw-client.ts';

/** The real Redis to compare with; REAL_REDIS_PORT lets you point elsewhere (or nowhere, to see the skip path). */
export const REAL_PORT = Number(process.env.REAL_REDIS_PORT ?? 6379);
/** Conformance runs in this logical DB on both servers, with a unique key prefix per case. */
export const TEST_DB = 13;

/**
 * True when something answering PING with +PONG listens on 127.0.0.1:6379. When not, says so on
 * stderr, because vitest's default reporter does not print the titles of skipped suites.
 */
export async function realRedisReachable(timeoutMs = 500): Promise<boolean> {
  const up = await ping(timeoutMs);
  if (!up) console.warn(`real Redis not reachable at 127.0.0.1:${REAL_PORT} — real-Redis comparisons in this file are skipped`);
  return up;
}

function ping(timeoutMs: number): Promise<boolean> {
  return new Promise((resolve) => {
    const sock = net.connect(REAL_PORT, '127.0.0.1');
    const done = (ok: boolean): void => {
      clearTimeout(t);
      sock.destroy();
      resolve(ok);
    };
    const t = setTimeout(() => done(false), timeoutMs);
    sock.on('connect', () => sock.write('*1\r\n$4\r\nPING\r\n'));
    sock.on('data', (d) => done(d.toString().startsWith('+PONG')));
    sock.on('error', () => done(false));
  });
}

let counter = 0;
export function uniquePrefix(tag: string): string {
  return `er-test:${process.pid}:${Date.now().toString(36)}:${counter++}:${tag}:`;
}

export interface Conn {
  call(args: (string | number)[]): Promise<Plain>;
  /** Typed reply (raw clients only). */
  typed?(args: (string | number)[]): Promise<Resp>;
  close(): Promise<void>;
}

export type Path = 'raw-resp2' | 'raw-resp3' | 'ioredis-resp3' | 'ioredis-resp2';
export const PATHS: Path[] = ['raw-resp2', 'raw-resp3', 'ioredis-resp3', 'ioredis-resp2'];

export async function openConn(port: number, path: Path): Promise<Conn> {
  if (path === 'raw-resp2' || path === 'raw-resp3') {
    const c = await RawClient.connect(port);
    if (path === 'raw-resp3') {
      const h = await c.call('HELLO', '3');
      if (h.t !== 'map') throw new Error(`HELLO 3 did not return a map: ${JSON.stringify(h)}`);
    }
    await c.call('SELECT', TEST_DB);
    return {
      call: async (args) => plain(await c.call(...args)),
      typed: (args) => c.call(...args),
      close: () => {
        c.close();
        return Promise.resolve();
      },
    };
  }
  const r = new Redis({
    host: '127.0.0.1',
    port,
    db: TEST_DB,
    protocol: path === 'ioredis-resp3' ? 3 : 2,
    maxRetriesPerRequest: 0,
    retryStrategy: () => null,
    lazyConnect: true,
  });
  await r.connect();
  return {
    call: async (args) => {
      try {
        return normalise(await r.call(String(args[0]), ...args.slice(1).map(String)));
      } catch (e) {
        return { error: (e as Error).message };
      }
    },
    close: async () => {
      await r.quit().catch(() => undefined);
      r.disconnect();
    },
  };
}

function normalise(v: unknown): Plain {
  if (v instanceof Error) return { error: v.message };
  if (Array.isArray(v)) return v.map(normalise);
  if (Buffer.isBuffer(v)) return v.toString('latin1');
  if (v === undefined) return null;
  return v as Plain;
}
