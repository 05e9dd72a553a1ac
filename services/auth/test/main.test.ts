import { type ChildProcess, spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Infra, privateKeyPem, startInfra } from './support/harness.ts';

const serviceDir = fileURLToPath(new URL('..', import.meta.url));
let infra: Infra;
const children: ChildProcess[] = [];

beforeAll(async () => {
  infra = await startInfra();
});

afterAll(async () => {
  for (const child of children) if (child.exitCode === null) child.kill('SIGKILL');
  await infra?.stop();
});

function run(env: Record<string, string>) {
  const child = spawn(process.execPath, ['--import', 'tsx', 'src/main.ts'], {
    cwd: serviceDir,
    env: { PATH: process.env.PATH ?? '', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  children.push(child);
  let stdout = '';
  let stderr = '';
  child.stdout!.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
  child.stderr!.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  return { child, exited, out: () => stdout, err: () => stderr };
}

const baseEnv = () => ({
  PORT: '0',
  KAFKA_BROKERS: infra.kafka.brokers,
  MONGO_URL: infra.mongo.uri('auth_main'),
  REDIS_URL: infra.redis.url,
  SERVICE_NAME: 'auth',
  LOG_LEVEL: 'info',
  JWT_PRIVATE_KEY: privateKeyPem,
  ADMIN_ID: 'admin',
  ADMIN_PASSWORD: 'devstack-admin-pw',
  SMS_DEV_OUTBOX: 'true',
});

describe('main (the devstack starts it this way)', () => {
  it('starts with the devstack environment, logs one listening line, is ready, and stops cleanly on SIGTERM', async () => {
    const proc = run(baseEnv());
    const deadline = Date.now() + 30_000;
    let listening: { port: number } | undefined;
    while (!listening && Date.now() < deadline && proc.child.exitCode === null) {
      const line = proc.out().split('\n').find((l) => l.includes('"msg":"listening"'));
      if (line) listening = JSON.parse(line) as { port: number };
      else await new Promise((r) => setTimeout(r, 100));
    }
    expect(listening, proc.err()).toBeDefined();
    const base = `http://127.0.0.1:${listening!.port}`;
    expect((await fetch(`${base}/readyz`)).status).toBe(200);
    const login = await fetch(`${base}/sessions`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ id: 'admin', password: 'devstack-admin-pw' }) });
    expect(login.status).toBe(200);
    proc.child.kill('SIGTERM');
    expect(await proc.exited).toBe(0);
    for (const line of proc.out().trim().split('\n')) expect(() => JSON.parse(line)).not.toThrow();
  }, 60_000);

  it('exits 2 with one line naming a missing or malformed variable', async () => {
    const { JWT_PRIVATE_KEY: _omit, ...withoutKey } = baseEnv();
    const missing = run(withoutKey);
    expect(await missing.exited).toBe(2);
    expect(missing.err().trim()).toBe('Invalid configuration: JWT_PRIVATE_KEY: is required');

    const malformed = run({ ...baseEnv(), JWT_PRIVATE_KEY: 'not a key' });
    expect(await malformed.exited).toBe(2);
    expect(malformed.err().trim().split('\n')).toHaveLength(1);
    expect(malformed.err()).toContain('JWT_PRIVATE_KEY');
  }, 30_000);
});
