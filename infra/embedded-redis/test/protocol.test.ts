// Wire-level behaviour: pipelining, requests split across packets, inline commands and
// malformed input. Runs against the embedded server and, when reachable, the real Redis.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startEmbeddedRedis } from '../src/index.ts';
import type { EmbeddedRedis } from '../src/index.ts';
import { RawClient, encodeCommand, plain } from './support/raw-client.ts';
import { REAL_PORT, realRedisReachable, uniquePrefix } from './support/targets.ts';

const realUp = await realRedisReachable();
let embedded: EmbeddedRedis;
beforeAll(async () => {
  embedded = await startEmbeddedRedis({ port: 0 });
});
afterAll(async () => {
  await embedded?.close();
});

const MALFORMED: [string, string][] = [
  ['*abc\r\n', 'ERR Protocol error: invalid multibulk length'],
  ['*1\r\n+foo\r\n', "ERR Protocol error: expected '$', got '+'"],
  ['*1\r\n$abc\r\n', 'ERR Protocol error: invalid bulk length'],
  ['*2\r\n$4\r\nPING\r\n$-1\r\n', 'ERR Protocol error: invalid bulk length'],
  ['set "a\r\n', 'ERR Protocol error: unbalanced quotes in request'],
];

function suite(label: string, port: () => number): void {
  describe(label, () => {
    it('answers a 1000-command pipeline sent in one write, in order', async () => {
      const c = await RawClient.connect(port());
      const p = uniquePrefix('pipe');
      let data = encodeCommand(['SELECT', '13']);
      for (let i = 0; i < 500; i++) {
        data += encodeCommand(['SET', `${p}${i}`, `v${i}`]) + encodeCommand(['GET', `${p}${i}`]);
      }
      const keys = Array.from({ length: 500 }, (_, i) => `${p}${i}`);
      data += encodeCommand(['DEL', ...keys]);
      const replies = (await c.sendRaw(data, 1002)).map(plain);
      expect(replies[0]).toBe('OK');
      for (let i = 0; i < 500; i++) {
        expect(replies[1 + i * 2]).toBe('OK');
        expect(replies[2 + i * 2]).toBe(`v${i}`);
      }
      expect(replies[1001]).toBe(500);
      c.close();
    });

    it('reassembles requests split at every byte boundary', async () => {
      const c = await RawClient.connect(port());
      const p = uniquePrefix('split');
      const bytes = Buffer.from(
        encodeCommand(['SELECT', '13']) +
          encodeCommand(['SET', `${p}k`, 'hello\r\nworld']) +
          encodeCommand(['GET', `${p}k`]) +
          encodeCommand(['DEL', `${p}k`]),
        'latin1',
      );
      const pending = c.sendRaw(Buffer.alloc(0), 4);
      for (let i = 0; i < bytes.length; i++) {
        await c.sendRaw(bytes.subarray(i, i + 1), 0);
        if (i % 7 === 0) await new Promise((r) => setTimeout(r, 1));
      }
      expect((await pending).map(plain)).toEqual(['OK', 'OK', 'hello\r\nworld', 1]);
      c.close();
    });

    it('round-trips a 4 MiB binary value followed by pipelined commands', async () => {
      const c = await RawClient.connect(port());
      const p = uniquePrefix('big');
      const big = Buffer.alloc(4 * 1024 * 1024);
      for (let i = 0; i < big.length; i++) big[i] = (i * 31) & 0xff;
      const value = big.toString('latin1');
      const replies = await c.sendRaw(
        encodeCommand(['SELECT', '13']) +
          encodeCommand(['SET', `${p}v`, value]) +
          encodeCommand(['STRLEN', `${p}v`]) +
          encodeCommand(['GET', `${p}v`]) +
          encodeCommand(['DEL', `${p}v`]),
        5,
      );
      expect(replies.slice(0, 3).map(plain)).toEqual(['OK', 'OK', big.length]);
      expect(plain(replies[3]!) === value).toBe(true);
      expect(plain(replies[4]!)).toBe(1);
      c.close();
    });

    it('accepts inline commands (telnet style), including quotes and blank lines', async () => {
      const c = await RawClient.connect(port());
      const p = uniquePrefix('inline');
      const replies = await c.sendRaw(
        `\r\nSELECT 13\r\nPING\nset ${p}a "hello world"\r\nget ${p}a\r\necho 'it\\'s'\r\necho "a\\x41\\n"\r\n*0\r\n*-1\r\nDEL ${p}a\r\n`,
        7,
      );
      expect(replies.map(plain)).toEqual(['OK', 'PONG', 'OK', 'hello world', "it's", 'aA\n', 1]);
      c.close();
    });

    for (const [input, message] of MALFORMED) {
      it(`answers ${JSON.stringify(input)} with a protocol error and closes only that connection`, async () => {
        const other = await RawClient.connect(port());
        const c = await RawClient.connect(port());
        const [reply] = await c.sendRaw(input, 1);
        expect(reply).toEqual({ t: 'error', v: message });
        expect(await c.waitClose()).toBe(true);
        expect(plain(await other.call('PING'))).toBe('PONG');
        other.close();
      });
    }

    it('executes the complete requests that precede a protocol error', async () => {
      const c = await RawClient.connect(port());
      const replies = await c.sendRaw('PING\r\n*1\r\n$4\r\nPING\r\n*x\r\n', 3);
      expect(replies.map(plain)).toEqual(['PONG', 'PONG', { error: 'ERR Protocol error: invalid multibulk length' }]);
      expect(await c.waitClose()).toBe(true);
    });

    it('QUIT replies OK and closes the connection', async () => {
      const c = await RawClient.connect(port());
      expect(plain(await c.call('QUIT'))).toBe('OK');
      expect(await c.waitClose()).toBe(true);
    });
  });
}

suite('embedded server', () => embedded.port);
if (realUp) suite(`real Redis at 127.0.0.1:${REAL_PORT}`, () => REAL_PORT);
else describe.skip(`real Redis not reachable at 127.0.0.1:${REAL_PORT} — skipped`, () => it('protocol', () => undefined));
