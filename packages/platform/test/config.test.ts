import { spawnSync } from 'node:child_process';
import { generateKeyPairSync } from 'node:crypto';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { ConfigError, env, parseConfig } from '../src/index.ts';

const shape = {
  PORT: env.port().default(3000),
  MONGO_URL: env.url(['mongodb']),
  KAFKA_BROKERS: env.hostPorts().optional(),
  DEBUG_SMS: env.bool().default(false),
};

describe('config', () => {
  it('reads and converts variables, with defaults', () => {
    const config = parseConfig(shape, { MONGO_URL: 'mongodb://127.0.0.1:27017/x', KAFKA_BROKERS: 'a:9092, b:9093', DEBUG_SMS: 'yes' });
    expect(config).toEqual({ PORT: 3000, MONGO_URL: 'mongodb://127.0.0.1:27017/x', KAFKA_BROKERS: ['a:9092', 'b:9093'], DEBUG_SMS: true });
  });

  it.each([
    [{}, 'Invalid configuration: MONGO_URL: is required'],
    [{ MONGO_URL: '   ' }, 'Invalid configuration: MONGO_URL: is required'],
    [{ MONGO_URL: 'http://x' }, 'Invalid configuration: MONGO_URL: must be a mongodb URL'],
    [{ MONGO_URL: 'mongodb://x', PORT: 'abc' }, 'Invalid configuration: PORT: must be'],
    [{ MONGO_URL: 'mongodb://x', PORT: '70000' }, 'Invalid configuration: PORT: must be an integer port between 0 and 65535'],
    [{ MONGO_URL: 'mongodb://x', KAFKA_BROKERS: 'nohost' }, 'Invalid configuration: KAFKA_BROKERS: must be a comma-separated list of host:port'],
    [{ MONGO_URL: 'mongodb://x', DEBUG_SMS: 'maybe' }, 'Invalid configuration: DEBUG_SMS: must be true or false'],
  ])('names the bad variable in one line: %j', (input, message) => {
    expect(() => parseConfig(shape, input)).toThrow(ConfigError);
    try {
      parseConfig(shape, input);
    } catch (error) {
      expect((error as Error).message).toContain(message);
      expect((error as Error).message).not.toContain('\n');
    }
  });

  it('says a required number is required rather than malformed', () => {
    expect(() => parseConfig({ PORT: env.port(), WORKERS: env.int(1) }, { WORKERS: '0' })).toThrow(
      'Invalid configuration: PORT: is required; WORKERS: must be at least 1',
    );
  });

  it('accepts ES256 keys in PEM, also with escaped newlines, and refuses other keys', () => {
    const { privateKey, publicKey } = generateKeyPairSync('ec', { namedCurve: 'P-256' });
    const privatePem = privateKey.export({ type: 'pkcs8', format: 'pem' }).toString();
    const publicPem = publicKey.export({ type: 'spki', format: 'pem' }).toString();
    const shape = { PRIVATE: env.es256PrivateKey(), PUBLIC: env.es256PublicKey() };
    const parsed = parseConfig(shape, { PRIVATE: privatePem.replace(/\n/g, '\\n'), PUBLIC: publicPem });
    expect(parsed.PRIVATE.trim()).toBe(privatePem.trim());
    const rsa = generateKeyPairSync('rsa', { modulusLength: 1024 }).publicKey.export({ type: 'spki', format: 'pem' }).toString();
    expect(() => parseConfig(shape, { PRIVATE: privatePem, PUBLIC: rsa })).toThrow('PUBLIC: must be a PEM EC P-256 public key (ES256)');
    expect(() => parseConfig(shape, { PRIVATE: publicPem, PUBLIC: publicPem })).toThrow('PRIVATE: must be a PKCS8 PEM EC P-256 private key (ES256)');
  });

  it('stops a process with exit code 2 and one line on stderr, no stack trace', () => {
    const script = fileURLToPath(new URL('./fixtures/config-main.ts', import.meta.url));
    const run = spawnSync(process.execPath, ['--import', 'tsx', script], {
      env: { PATH: process.env.PATH, PORT: 'eighty' },
      encoding: 'utf8',
    });
    expect(run.status).toBe(2);
    expect(run.stderr.trim().split('\n')).toHaveLength(1);
    expect(run.stderr).toContain('PORT: must be');
    expect(run.stderr).not.toMatch(/\bat\s+\S+\s+\(/);
  });
});

describe('Kafka SASL credentials', () => {
  it('are none without variables, and a complete set with them', async () => {
    const { kafkaSaslFromEnv } = await import('../src/index.ts');
    expect(kafkaSaslFromEnv({})).toBeUndefined();
    expect(kafkaSaslFromEnv({ KAFKA_SASL_USERNAME: 'smm', KAFKA_SASL_PASSWORD: 'pw' })).toEqual({ mechanism: 'plain', username: 'smm', password: 'pw' });
    expect(kafkaSaslFromEnv({ KAFKA_SASL_USERNAME: 'smm', KAFKA_SASL_PASSWORD: 'pw', KAFKA_SASL_MECHANISM: 'scram-sha-512' })?.mechanism).toBe('scram-sha-512');
    expect(() => kafkaSaslFromEnv({ KAFKA_SASL_USERNAME: 'smm' })).toThrow(/set together/);
    expect(() => kafkaSaslFromEnv({ KAFKA_SASL_USERNAME: 'smm', KAFKA_SASL_PASSWORD: 'pw', KAFKA_SASL_MECHANISM: 'gssapi' })).toThrow(/KAFKA_SASL_MECHANISM/);
  });
});

describe('KAFKA_CONSUMER_MAX_WAIT_MS', () => {
  it("is kafkajs's default when unset, a whole number of milliseconds when set, and refused otherwise", async () => {
    const { consumerMaxWait } = await import('../src/index.ts');
    expect(consumerMaxWait({})).toEqual({});
    expect(consumerMaxWait({ KAFKA_CONSUMER_MAX_WAIT_MS: '300' })).toEqual({ maxWaitTimeInMs: 300 });
    expect(() => consumerMaxWait({ KAFKA_CONSUMER_MAX_WAIT_MS: 'soon' })).toThrow(/KAFKA_CONSUMER_MAX_WAIT_MS/);
    expect(() => consumerMaxWait({ KAFKA_CONSUMER_MAX_WAIT_MS: '0' })).toThrow(/KAFKA_CONSUMER_MAX_WAIT_MS/);
  });
});

describe('SERVICE_AUTH_SECRET', () => {
  it('needs 32 characters', async () => {
    const { env: fields, parseConfig: parse } = await import('../src/index.ts');
    expect(() => parse({ SERVICE_AUTH_SECRET: fields.serviceSecret() }, { SERVICE_AUTH_SECRET: 'x'.repeat(31) })).toThrow(/at least 32 characters/);
    expect(parse({ SERVICE_AUTH_SECRET: fields.serviceSecret() }, { SERVICE_AUTH_SECRET: 'x'.repeat(32) }).SERVICE_AUTH_SECRET).toHaveLength(32);
    expect(() => parse({ SERVICE_AUTH_SECRET: fields.serviceSecret() }, {})).toThrow(/SERVICE_AUTH_SECRET: is required/);
  });
});
