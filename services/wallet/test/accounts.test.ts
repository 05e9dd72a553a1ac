import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Topics, UserRegistered } from '@smm/contracts';
import { EventProducer, type RunningServer, createKafka, createLogger, listen } from '@smm/platform';
import { callerHeaders, eventually, startInfra, testServiceSecret } from '@smm/testkit';
import { type WalletService, startWalletService } from '../src/service.ts';

const logger = createLogger({ service: 'wallet-test', level: 'silent' });
let infra: Awaited<ReturnType<typeof startInfra>>;
let wallet: WalletService;
let server: RunningServer;
let producer: EventProducer;
let base: string;

beforeAll(async () => {
  infra = await startInfra();
  wallet = await startWalletService({ mongoUrl: infra.mongo.uri(`wallet_${Date.now()}`), kafkaBrokers: [infra.kafka.brokers], logger, serviceAuthSecret: testServiceSecret });
  server = await listen(wallet.app, 0);
  base = `http://127.0.0.1:${server.port}`;
  producer = new EventProducer(createKafka([infra.kafka.brokers], 'auth-stand-in', logger));
  await producer.connect();
});

afterAll(async () => {
  await producer.disconnect();
  await server.close();
  await wallet.stop();
  await infra.stop();
});

const registered = (userId: string) =>
  UserRegistered.create(
    userId,
    { userId, loginId: `login-${userId}`, email: null, role: 'member', provider: 'local', registerWhere: '검색', referredBy: null },
    { correlationId: randomUUID() },
  );

const balance = (userId: string) => fetch(`${base}/accounts/${userId}`, { headers: callerHeaders({ to: 'wallet', userId, role: 'member' }) });

describe('point accounts', () => {
  it('opens one zero-balance account per registered member, even when the event arrives twice', async () => {
    const userId = randomUUID();
    const event = registered(userId);
    await producer.publish(Topics.auth, [event, event]);
    await producer.publish(Topics.auth, [event]);

    const res = await eventually(() => balance(userId), (r) => r.status === 200, 20_000);
    expect(await res.json()).toEqual({ userId, point: 0, pointDeci: 0 });
    expect(await wallet.accounts.count()).toBe(1);
  });

  it('answers 404 with a Korean message for a member without an account', async () => {
    const res = await balance('nobody');
    expect(res.status).toBe(404);
    expect(await res.json()).toEqual({ code: 'ACCOUNT_NOT_FOUND', message: '포인트 계정을 찾을 수 없습니다.' });
  });

  it('is ready only while its dependencies answer', async () => {
    const res = await fetch(`${base}/readyz`);
    expect(await res.json()).toEqual({ status: 'ready', checks: { mongo: 'ok', kafka: 'ok' } });
  });
});
