// Pub/sub through RESP2 (plain arrays), RESP3 (push frames) and ioredis 6, on both servers.
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startEmbeddedRedis } from '../src/index.ts';
import type { EmbeddedRedis } from '../src/index.ts';
import { RawClient, plain } from './support/raw-client.ts';
import { REAL_PORT, realRedisReachable, uniquePrefix } from './support/targets.ts';

const realUp = await realRedisReachable();
let embedded: EmbeddedRedis;
beforeAll(async () => {
  embedded = await startEmbeddedRedis({ port: 0 });
});
afterAll(async () => {
  await embedded?.close();
});

const bulk = (v: string): { t: 'bulk'; v: string } => ({ t: 'bulk', v });
const int = (v: number): { t: 'int'; v: number } => ({ t: 'int', v });

function suite(label: string, port: () => number): void {
  describe(label, () => {
    it('RESP2: subscribe acks, message delivery, pattern delivery, context errors, unsubscribe', async () => {
      const ch = uniquePrefix('ch');
      const sub = await RawClient.connect(port());
      const pub = await RawClient.connect(port());
      sub.subscriberMode = true;
      await sub.sendRaw(`SUBSCRIBE ${ch}a ${ch}b\r\nPSUBSCRIBE ${ch}*\r\n`, 0);
      const acks = await sub.waitPushes(3);
      expect(acks).toEqual([
        { t: 'array', v: [bulk('subscribe'), bulk(`${ch}a`), int(1)] },
        { t: 'array', v: [bulk('subscribe'), bulk(`${ch}b`), int(2)] },
        { t: 'array', v: [bulk('psubscribe'), bulk(`${ch}*`), int(3)] },
      ]);
      expect(plain(await pub.call('PUBLISH', `${ch}a`, 'hi'))).toBe(2);
      expect(plain(await pub.call('PUBLISH', `${ch}zzz`, 'p'))).toBe(1);
      expect(plain(await pub.call('PUBLISH', 'elsewhere-' + ch, 'x'))).toBe(0);
      const msgs = await sub.waitPushes(3);
      expect(msgs.map(plain)).toEqual([
        ['message', `${ch}a`, 'hi'],
        ['pmessage', `${ch}*`, `${ch}a`, 'hi'],
        ['pmessage', `${ch}*`, `${ch}zzz`, 'p'],
      ]);
      sub.subscriberMode = false;
      expect(await sub.call('GET', 'x')).toEqual({
        t: 'error',
        v: "ERR Can't execute 'get': only (P|S)SUBSCRIBE / (P|S)UNSUBSCRIBE / PING / QUIT / RESET are allowed in this context",
      });
      expect(plain(await sub.call('PING'))).toEqual(['pong', '']);
      sub.subscriberMode = true;
      await sub.sendRaw(`UNSUBSCRIBE\r\nPUNSUBSCRIBE\r\nUNSUBSCRIBE\r\n`, 0);
      const unsubs = (await sub.waitPushes(4)).map(plain);
      // Redis walks its channel dict in hash order, so only the names and the countdown are fixed.
      const [u1, u2] = unsubs as [string, string, number][];
      expect([u1?.[1], u2?.[1]].sort()).toEqual([`${ch}a`, `${ch}b`]);
      expect([u1?.[0], u1?.[2], u2?.[0], u2?.[2]]).toEqual(['unsubscribe', 2, 'unsubscribe', 1]);
      expect(unsubs[2]).toEqual(['punsubscribe', `${ch}*`, 0]);
      expect(unsubs[3]).toEqual(['unsubscribe', null, 0]);
      sub.subscriberMode = false;
      expect(plain(await sub.call('PING'))).toBe('PONG');
      sub.close();
      pub.close();
    });

    it('RESP3: acks and messages are push frames; normal commands still work while subscribed', async () => {
      const ch = uniquePrefix('ch3');
      const sub = await RawClient.connect(port());
      await sub.call('HELLO', '3');
      await sub.sendRaw(`SUBSCRIBE ${ch}\r\n`, 0);
      expect(await sub.waitPushes(1)).toEqual([{ t: 'push', v: [bulk('subscribe'), bulk(ch), int(1)] }]);
      // A RESP3 subscriber may publish to itself; the message arrives as a push, the count as a reply.
      expect(await sub.call('PUBLISH', ch, 'self')).toEqual(int(1));
      expect(await sub.waitPushes(1)).toEqual([{ t: 'push', v: [bulk('message'), bulk(ch), bulk('self')] }]);
      expect(await sub.call('GET', 'never-set-' + ch)).toEqual({ t: 'null', v: null, kind: 'resp3' });
      await sub.sendRaw(`UNSUBSCRIBE ${ch}\r\nUNSUBSCRIBE\r\n`, 0);
      expect(await sub.waitPushes(2)).toEqual([
        { t: 'push', v: [bulk('unsubscribe'), bulk(ch), int(0)] },
        { t: 'push', v: [bulk('unsubscribe'), { t: 'null', v: null, kind: 'resp3' }, int(0)] },
      ]);
      sub.close();
    });

    it('RESET leaves subscribed mode, drops subscriptions and returns to RESP2 / db 0', async () => {
      const ch = uniquePrefix('reset');
      const c = await RawClient.connect(port());
      const pub = await RawClient.connect(port());
      await c.call('HELLO', '3');
      await c.sendRaw(`SUBSCRIBE ${ch}\r\n`, 0);
      await c.waitPushes(1);
      await c.call('SELECT', '13');
      expect(await c.call('RESET')).toEqual({ t: 'simple', v: 'RESET' });
      expect(await pub.call('PUBLISH', ch, 'x')).toEqual(int(0));
      expect(await c.call('GET', `${ch}missing`)).toEqual({ t: 'null', v: null, kind: 'bulk' });
      expect((await c.call('CLIENT', 'INFO')).v).toMatch(/ db=0 .*resp=2/);
      c.close();
      pub.close();
    });

    for (const protocol of [3, 2] as const) {
      it(`ioredis 6 (protocol ${protocol}) subscriber receives messages and pmessages`, async () => {
        const ch = uniquePrefix(`io${protocol}`);
        const sub = new Redis({ port: port(), host: '127.0.0.1', protocol, lazyConnect: true });
        const pub = new Redis({ port: port(), host: '127.0.0.1', protocol, lazyConnect: true });
        await sub.connect();
        await pub.connect();
        const got: string[] = [];
        sub.on('message', (c: string, m: string) => got.push(`message ${c} ${m}`));
        sub.on('pmessage', (p: string, c: string, m: string) => got.push(`pmessage ${p} ${c} ${m}`));
        expect(await sub.subscribe(`${ch}x`)).toBe(1);
        expect(await sub.psubscribe(`${ch}*`)).toBe(2);
        expect(await pub.publish(`${ch}x`, '안녕')).toBe(2);
        const until = Date.now() + 2000;
        while (got.length < 2 && Date.now() < until) await new Promise((r) => setTimeout(r, 5));
        expect(got.sort()).toEqual([`message ${ch}x 안녕`, `pmessage ${ch}* ${ch}x 안녕`]);
        // ioredis 6 never resolves a bare unsubscribe() (even against real Redis), so name them.
        expect(await sub.unsubscribe(`${ch}x`)).toBe(1);
        expect(await sub.punsubscribe(`${ch}*`)).toBe(0);
        sub.disconnect();
        pub.disconnect();
      });
    }
  });
}

suite('embedded server', () => embedded.port);
if (realUp) suite(`real Redis at 127.0.0.1:${REAL_PORT}`, () => REAL_PORT);
else describe.skip(`real Redis not reachable at 127.0.0.1:${REAL_PORT} — skipped`, () => it('pubsub', () => undefined));
