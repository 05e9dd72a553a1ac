import { type ChildProcess, spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startInfra } from './support.ts';

const packageDir = fileURLToPath(new URL('..', import.meta.url));
let infra: Awaited<ReturnType<typeof startInfra>>;
const children: ChildProcess[] = [];

beforeAll(async () => {
  infra = await startInfra();
});

afterAll(async () => {
  for (const child of children) if (child.exitCode === null) child.kill('SIGKILL');
  await infra?.stop();
});

/** Starts main.ts with the devstack's environment; resolves with its log lines as they come. */
function startMain(env: Record<string, string>) {
  const child = spawn(process.execPath, ['--import', 'tsx', 'src/main.ts'], { cwd: packageDir, env: { PATH: process.env.PATH ?? '', ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
  children.push(child);
  const lines: Array<Record<string, unknown>> = [];
  let stderr = '';
  let buffered = '';
  child.stdout!.on('data', (chunk: Buffer) => {
    buffered += chunk.toString();
    const parts = buffered.split('\n');
    buffered = parts.pop() ?? '';
    for (const part of parts) if (part.trim()) lines.push(JSON.parse(part) as Record<string, unknown>);
  });
  child.stderr!.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  const waitFor = async (msg: string, timeoutMs = 45_000) => {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const line = lines.find((l) => l.msg === msg);
      if (line) return line;
      if (child.exitCode !== null || Date.now() > deadline) throw new Error(`no "${msg}" line; stderr: ${stderr}; lines: ${JSON.stringify(lines)}`);
      await new Promise((r) => setTimeout(r, 100));
    }
  };
  return { child, lines, exited, waitFor, stderr: () => stderr };
}

const env = () => ({
  HOST: '127.0.0.1',
  PORT: '0',
  KAFKA_BROKERS: infra.kafka.brokers,
  MONGO_URL: infra.mongo.uri('catalog_main'),
  REDIS_URL: 'redis://127.0.0.1:1',
  LOG_LEVEL: 'info',
  SERVICE_NAME: 'catalog',
});

describe('main.ts with the devstack environment', () => {
  it('seeds on first start, answers /readyz, stops cleanly, and does not seed twice', async () => {
    const first = startMain(env());
    const listening = await first.waitFor('listening');
    const base = `http://127.0.0.1:${String(listening.port)}`;
    expect((await first.waitFor('seed finished')).created).toBeGreaterThan(50);
    expect((await fetch(`${base}/readyz`)).status).toBe(200);
    const platforms = (await (await fetch(`${base}/platforms`)).json()) as Array<{ text: string }>;
    expect(platforms[0]?.text).toBe('인스타그램');
    first.child.kill('SIGTERM');
    expect(await first.exited).toBe(0);

    const second = startMain(env());
    await second.waitFor('listening');
    expect(await second.waitFor('seed finished')).toMatchObject({ created: 0 });
    second.child.kill('SIGINT');
    expect(await second.exited).toBe(0);
  }, 120_000);

  it('refuses a missing or malformed variable with one line and exit code 2', async () => {
    const run = startMain({ ...env(), MONGO_URL: 'http://nope', KAFKA_BROKERS: '' });
    expect(await run.exited).toBe(2);
    expect(run.stderr().trim().split('\n')).toHaveLength(1);
    expect(run.stderr()).toContain('MONGO_URL');
    expect(run.stderr()).toContain('KAFKA_BROKERS');
  });
});
