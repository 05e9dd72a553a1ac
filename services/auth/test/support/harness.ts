import { generateKeyPairSync, randomUUID } from 'node:crypto';
import jwt from 'jsonwebtoken';
import { SettingChanged, Topics, type EventEnvelope } from '@smm/contracts';
import { EventProducer, createKafka, createLogger, listen, parseConfig } from '@smm/platform';
import type { RunningServer } from '@smm/platform';
import { configShape } from '../../src/config.ts';
import { type AuthService, startAuthService } from '../../src/service.ts';
import { FakeProviders } from './fake-providers.ts';
import { type Infra, callerHeaders, eventually, startInfra, testServiceSecret } from '@smm/testkit';

const keys = generateKeyPairSync('ec', { namedCurve: 'P-256' });
export const privateKeyPem = keys.privateKey.export({ type: 'pkcs8', format: 'pem' }).toString();
export const publicKeyPem = keys.publicKey.export({ type: 'spki', format: 'pem' }).toString();

/** The credential the BFF sends when acting for a signed-in member. */
export const as = (userId: string, role: 'member' | 'admin' = 'member') => callerHeaders({ to: 'auth', userId, role });

export type Answer<T = Record<string, unknown>> = { status: number; body: T; headers: Headers };

/** An auth service on a free port over the embedded servers, as the BFF would call it. */
export class AuthUnderTest {
  private constructor(
    readonly runtime: AuthService,
    private readonly server: RunningServer,
  ) {}

  /**
   * `secondary` gives the instance a consumer group of its own: joining the `auth` group beside the
   * first instance would cost a group rebalance (seconds) at start and again at stop.
   */
  static async start(infra: Infra, providers: FakeProviders | null, env: Record<string, string> = {}, secondary = false): Promise<AuthUnderTest> {
    const config = parseConfig(configShape, {
      KAFKA_BROKERS: infra.kafka.brokers,
      MONGO_URL: infra.mongo.uri('auth'),
      REDIS_URL: infra.redis.url,
      LOG_LEVEL: 'silent',
      JWT_PRIVATE_KEY: privateKeyPem,
      SERVICE_AUTH_SECRET: testServiceSecret,
      SMS_DEV_OUTBOX: 'true',
      PHONE_CODE_MAX_SENDS_PER_IP_PER_HOUR: '3',
      LOGIN_MAX_ATTEMPTS_PER_ID: '5',
      LOGIN_MAX_ATTEMPTS_PER_IP: '8',
      LOGIN_MAX_ATTEMPTS_PER_ID_ALL_ADDRESSES: '12',
      LOGIN_BACKOFF_BASE_MS: '200',
      ...(providers && {
        NAVER_AUTH_URL: providers.url,
        NAVER_API_URL: providers.url,
        KAKAO_API_URL: providers.url,
        NAVER_CLIENT_SECRET: providers.naverClientSecret,
      }),
      ...env,
    });
    const logger = createLogger({ service: 'auth-test', level: process.env.TEST_LOG_LEVEL ?? 'silent' });
    const runtime = await startAuthService(config, logger, secondary ? { consumerGroup: `auth-secondary-${randomUUID()}` } : {});
    const server = await listen(runtime.app, 0);
    return new AuthUnderTest(runtime, server);
  }

  get url(): string {
    return `http://127.0.0.1:${this.server.port}`;
  }

  /** Calls as the BFF does for a guest unless `headers` carry another credential (`as(userId)`). */
  async call<T = Record<string, unknown>>(method: string, path: string, body?: unknown, headers: Record<string, string> = {}): Promise<Answer<T>> {
    const res = await fetch(`${this.url}${path}`, {
      method,
      headers: { ...callerHeaders({ to: 'auth' }), ...(body !== undefined && { 'content-type': 'application/json' }), ...headers },
      ...(body !== undefined && { body: typeof body === 'string' ? body : JSON.stringify(body) }),
    });
    const text = await res.text();
    return { status: res.status, body: (text === '' ? {} : JSON.parse(text)) as T, headers: res.headers };
  }

  post<T = Record<string, unknown>>(path: string, body?: unknown, headers?: Record<string, string>) {
    return this.call<T>('POST', path, body ?? {}, headers);
  }

  /** The code the development SMS sender "sent" to a number most recently. */
  async lastCode(phoneNumber: string): Promise<string> {
    const answer = await this.call<{ messages: Array<{ code: string }> }>('GET', `/dev/sms-outbox?phoneNumber=${phoneNumber}`);
    const code = answer.body.messages?.[0]?.code;
    if (!code) throw new Error(`no code sent to ${phoneNumber}`);
    return code;
  }

  async stop(): Promise<void> {
    await this.server.close();
    await this.runtime.stop();
  }
}

/** Publishes catalog's SettingChanged like the catalog service would, and waits until auth applied it. */
export class CatalogPublisher {
  private constructor(
    private readonly producer: EventProducer,
    private readonly auth: () => AuthUnderTest,
  ) {}

  static async start(infra: Infra, auth: () => AuthUnderTest): Promise<CatalogPublisher> {
    const kafka = createKafka([infra.kafka.brokers], 'catalog-test', createLogger({ service: 'catalog-test', level: 'silent' }));
    const producer = new EventProducer(kafka);
    await producer.connect();
    return new CatalogPublisher(producer, auth);
  }

  async publish(events: EventEnvelope[]): Promise<void> {
    await this.producer.publish(Topics.catalog, events);
  }

  async set(settings: Record<string, string>): Promise<void> {
    const events = Object.entries(settings).map(([key, value]) => SettingChanged.create(`setting-${key}`, { key, value }, { correlationId: randomUUID() }));
    await this.publish(events);
    await eventually(
      () => this.auth().runtime.services.settings.all(),
      (all) => Object.entries(settings).every(([key, value]) => all.get(key) === value),
      20_000,
    );
  }

  stop(): Promise<void> {
    return this.producer.disconnect();
  }
}

/** Every event on auth.events.v1, read by a group of its own from the beginning. */
export async function collectAuthEvents(infra: Infra): Promise<{ events: EventEnvelope[]; stop(): Promise<void> }> {
  const kafka = createKafka([infra.kafka.brokers], 'auth-events-reader', createLogger({ service: 'reader', level: 'silent' }));
  const consumer = kafka.consumer({ groupId: `reader-${randomUUID()}`, sessionTimeout: 6000 });
  const events: EventEnvelope[] = [];
  await consumer.connect();
  await consumer.subscribe({ topics: [Topics.auth], fromBeginning: true });
  await consumer.run({
    eachMessage: async ({ message }) => {
      events.push(JSON.parse(message.value?.toString() ?? 'null') as EventEnvelope);
    },
  });
  return { events, stop: () => consumer.disconnect() };
}

export { FakeProviders, eventually, startInfra };
export type { Infra };

let phoneSeq = 10_000_000;
/** A phone number no other case in this process uses. */
export function freshPhone(): string {
  phoneSeq += 1;
  return `010${String(phoneSeq).slice(-8)}`;
}

let idSeq = 0;
export function freshId(prefix = 'user'): string {
  idSeq += 1;
  return `${prefix}${idSeq}${randomUUID().slice(0, 4)}`;
}

/** The first admin, created at start from ADMIN_ID / ADMIN_PASSWORD (pass as the start's env). */
export const firstAdmin = { ADMIN_ID: 'root', ADMIN_PASSWORD: 'first-admin-pw' };

/** Signs the first admin in: their user id and the credential the BFF would send for them. */
export async function signInFirstAdmin(auth: AuthUnderTest): Promise<{ userId: string; as: Record<string, string> }> {
  const login = await auth.post<{ accessToken: string }>('/sessions', { id: firstAdmin.ADMIN_ID, password: firstAdmin.ADMIN_PASSWORD });
  const userId = String(jwt.decode(login.body.accessToken, { json: true })?.sub);
  return { userId, as: as(userId, 'admin') };
}
