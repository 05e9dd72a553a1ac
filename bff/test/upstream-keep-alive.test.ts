import { randomBytes } from 'node:crypto';
import { type AddressInfo, type Server, type Socket, createServer } from 'node:net';
import { pino } from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ServiceClient, ServiceUnavailable } from '../src/upstream/service-client.ts';

/**
 * A service that keeps a connection open 2 s after an answer (`Keep-Alive: timeout=2`) and whose
 * close, at that moment, crosses a request already on its way: a request arriving on a connection
 * idle for 2 s or more meets a reset, as it would meet a real server's keep-alive close.
 */
let server: Server;
let connections = 0;
beforeAll(async () => {
  server = createServer((socket: Socket) => {
    connections++;
    let lastAnswer = 0;
    let buffered = '';
    socket.on('data', (chunk) => {
      buffered += chunk.toString('latin1');
      while (buffered.includes('\r\n\r\n')) {
        buffered = buffered.slice(buffered.indexOf('\r\n\r\n') + 4);
        if (lastAnswer > 0 && Date.now() - lastAnswer >= 2000) {
          socket.resetAndDestroy();
          return;
        }
        socket.write('HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Length: 11\r\nConnection: keep-alive\r\nKeep-Alive: timeout=2\r\n\r\n{"ok":true}');
        lastAnswer = Date.now();
      }
    });
    socket.on('error', () => undefined);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
});
afterAll(() => new Promise((resolve) => server.close(resolve)));

describe("the BFF's connections to a service", () => {
  it('are let go before the service closes them, so a call after a pause is answered, not a 503', async () => {
    const { port } = server.address() as AddressInfo;
    const client = new ServiceClient('catalog', `http://127.0.0.1:${port}`, 2000, { secret: randomBytes(32).toString('hex'), from: 'bff' });
    const ctx = { requestId: 'r-1', correlationId: 'r-1', clientIp: null, log: pino({ level: 'silent' }) };
    expect((await client.call(ctx, 'GET', '/platforms')).body).toEqual({ ok: true });
    const before = connections;
    // Past the service's keep-alive timeout: the connection it would close must not carry this call.
    await new Promise((resolve) => setTimeout(resolve, 2200));
    const answer = await client.call(ctx, 'GET', '/platforms').catch((error: unknown) => error);
    expect(answer).not.toBeInstanceOf(ServiceUnavailable);
    expect(answer).toMatchObject({ status: 200, body: { ok: true } });
    expect(connections).toBe(before + 1);
  });
});
