import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createLogger, parseConfig } from '@smm/platform';
import { type Infra, startInfra, testServiceSecret } from '@smm/testkit';
import { configShape } from '../src/config.ts';
import { NhnCloudSmsSender } from '../src/sms/nhn-cloud-sms-sender.ts';
import { smsSenderFrom } from '../src/sms/sms-from-config.ts';
import { FakeNhnSms } from './support/fake-nhn-sms.ts';
import { AuthUnderTest, privateKeyPem } from './support/harness.ts';

const phone = () => `010${String(Math.floor(Math.random() * 1e8)).padStart(8, '0')}`;

describe('phone codes through NHN Cloud SMS (a local server speaking its API)', () => {
  let infra: Infra;
  let nhn: FakeNhnSms;
  let auth: AuthUnderTest;

  beforeAll(async () => {
    infra = await startInfra();
    nhn = await new FakeNhnSms().start();
    auth = await AuthUnderTest.start(infra, null, {
      SMS_PROVIDER: 'nhncloud',
      SMS_DEV_OUTBOX: 'false',
      NHN_SMS_BASE_URL: nhn.url,
      NHN_SMS_APP_KEY: nhn.appKey,
      NHN_SMS_SECRET_KEY: nhn.secretKey,
      NHN_SMS_SENDER_NUMBER: '0212345678',
      SITE_NAME: '그로우패널',
    });
  }, 120_000);

  afterAll(async () => {
    await auth?.stop();
    await nhn?.close();
    await infra?.stop();
  });

  it('sends the code with the site name from the registered number, and nothing to the dev outbox', async () => {
    const to = phone();
    nhn.mode = 'ok';
    const sent = await auth.post('/phone-verifications', { phoneNumber: to });
    expect(sent.status).toBe(201);
    const request = nhn.received.at(-1)!;
    expect(request.appKey).toBe(nhn.appKey);
    expect(request.secretKey).toBe(nhn.secretKey);
    expect(request.body.sendNo).toBe('0212345678');
    expect(request.body.recipientList).toEqual([{ recipientNo: to }]);
    expect(request.body.body).toMatch(/^\[그로우패널\] 인증번호 \[\d{5}\]를 입력해 주세요\.$/);
  });

  it('a refusal by the provider is a 502 in Korean, and the number can be tried again at once', async () => {
    const to = phone();
    nhn.mode = 'refuse';
    const refused = await auth.post('/phone-verifications', { phoneNumber: to });
    expect(refused.status).toBe(502);
    expect(refused.body).toMatchObject({ code: 'SMS_SEND_FAILED', message: '인증번호를 보내지 못했습니다. 잠시 후 다시 시도해 주세요.' });
    nhn.mode = 'badRecipient';
    expect((await auth.post('/phone-verifications', { phoneNumber: to })).status).toBe(502);
    nhn.mode = 'ok';
    expect((await auth.post('/phone-verifications', { phoneNumber: to })).status).toBe(201);
  });

  it('a wrong secret key is refused by the provider and never counts as sent', async () => {
    const sender = new NhnCloudSmsSender({ baseUrl: nhn.url, appKey: nhn.appKey, secretKey: 'wrong', senderNumber: '0212345678', timeoutMs: 2000 });
    await expect(sender.send(phone(), 'x')).rejects.toThrow(/-1000/);
  });

  it('SMS_PROVIDER=nhncloud without its keys names the missing variable', () => {
    const config = parseConfig(configShape, { KAFKA_BROKERS: infra.kafka.brokers, MONGO_URL: infra.mongo.uri('auth'), REDIS_URL: infra.redis.url, JWT_PRIVATE_KEY: privateKeyPem, SERVICE_AUTH_SECRET: testServiceSecret, SMS_PROVIDER: 'nhncloud' });
    const redis = new Redis(infra.redis.url, { lazyConnect: true });
    expect(() => smsSenderFrom(config, createLogger({ service: 't', level: 'silent' }), redis)).toThrow('Invalid configuration: NHN_SMS_APP_KEY: required when SMS_PROVIDER=nhncloud');
    redis.disconnect();
  });
});
