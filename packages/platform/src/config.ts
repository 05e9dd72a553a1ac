import { createPrivateKey, createPublicKey } from 'node:crypto';
import { z } from 'zod';
import { describeIssues } from '@smm/contracts';

/** A configuration problem an operator can fix; the message names the variable. */
export class ConfigError extends Error {
  override name = 'ConfigError';
}

type Env = Record<string, string | undefined>;

/**
 * Reads the environment through a zod object schema. Empty strings count as unset, so `FOO=` in a
 * shell does not smuggle an empty URL past a default.
 */
export function parseConfig<TShape extends z.ZodRawShape>(shape: TShape, env: Env = process.env): z.infer<z.ZodObject<TShape>> {
  const input: Record<string, string> = {};
  for (const key of Object.keys(shape)) {
    const value = env[key];
    if (value !== undefined && value.trim() !== '') input[key] = value.trim();
  }
  const result = z.object(shape).safeParse(input);
  if (!result.success) throw new ConfigError(`Invalid configuration: ${describeIssues(result.error)}`);
  return result.data;
}

/**
 * Like parseConfig, for a process's start-up: a bad or missing variable prints one line naming it
 * and ends the process with exit code 2 — no stack trace.
 */
export function loadConfig<TShape extends z.ZodRawShape>(shape: TShape, env: Env = process.env): z.infer<z.ZodObject<TShape>> {
  try {
    return parseConfig(shape, env);
  } catch (error) {
    if (!(error instanceof ConfigError)) throw error;
    process.stderr.write(`${error.message}\n`);
    process.exit(2);
  }
}

const text = () => z.string({ error: 'is required' });

/**
 * An ES256 (EC P-256) key in PEM. Newlines that arrived as a literal `\n` (common in env files)
 * are restored before the key is checked.
 */
const es256Pem = (kind: 'private' | 'public') =>
  text()
    .transform((value) => value.replace(/\\n/g, '\n'))
    .refine(
      (pem) => {
        try {
          const key = kind === 'private' ? createPrivateKey(pem) : createPublicKey(pem);
          return key.asymmetricKeyType === 'ec' && key.asymmetricKeyDetails?.namedCurve === 'prime256v1';
        } catch {
          return false;
        }
      },
      { error: kind === 'private' ? 'must be a PKCS8 PEM EC P-256 private key (ES256)' : 'must be a PEM EC P-256 public key (ES256)' },
    );

/** Field builders with messages that say what was expected. */
export const env = {
  string: text,
  port: () =>
    text().pipe(
      z.coerce
        .number<string>({ error: 'must be a port number' })
      .int({ error: 'must be an integer port between 0 and 65535' })
      .min(0, { error: 'must be an integer port between 0 and 65535' })
        .max(65535, { error: 'must be an integer port between 0 and 65535' }),
    ),
  int: (min = 0) =>
    text().pipe(z.coerce.number<string>({ error: 'must be a number' }).int({ error: 'must be an integer' }).min(min, { error: `must be at least ${min}` })),
  bool: () =>
    z
      .enum(['true', 'false', '1', '0', 'yes', 'no'], { error: (issue) => (issue.input === undefined ? 'is required' : 'must be true or false') })
      .transform((v) => v === 'true' || v === '1' || v === 'yes'),
  url: (protocols: readonly string[]) =>
    text().refine(
      (value) => {
        try {
          return protocols.includes(new URL(value).protocol.replace(/:$/, ''));
        } catch {
          return false;
        }
      },
      { error: `must be a ${protocols.join(' or ')} URL` },
    ),
  /** Comma-separated host:port list, as KAFKA_BROKERS is written. */
  hostPorts: () =>
    text()
      .transform((v) => v.split(',').map((s) => s.trim()).filter(Boolean))
      .refine((list) => list.length > 0 && list.every((hp) => /^[A-Za-z0-9.\-[\]:]+:\d{1,5}$/.test(hp)), {
        error: 'must be a comma-separated list of host:port',
      }),
  /** SERVICE_AUTH_SECRET: the HS256 key of service credentials; 32+ characters so it cannot be guessed offline. */
  serviceSecret: () => text().min(32, { error: 'must be at least 32 characters (generate one with: openssl rand -base64 48)' }),
  es256PrivateKey: () => es256Pem('private'),
  es256PublicKey: () => es256Pem('public'),
  logLevel: () => z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'], { error: 'must be one of fatal, error, warn, info, debug, trace, silent' }),
};
