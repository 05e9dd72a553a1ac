import { type ChildProcess, spawn, spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, readlinkSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir, totalmem } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Redis } from 'ioredis';
import { Kafka, logLevel } from 'kafkajs';
import { MongoClient } from 'mongodb';
import { afterAll, describe, expect, it } from 'vitest';
import { startInfra } from '@smm/testkit';
import { childrenOf, cleanEnv } from './support.ts';

const root = fileURLToPath(new URL('../../../', import.meta.url));
const entry = join(root, 'infra/devstack/bin/start.mjs');
const dataDir = mkdtempSync(join(tmpdir(), 'devstack-test-'));
afterAll(() => rmSync(dataDir, { recursive: true, force: true }));

/** A process's command line, arguments separated by spaces. */
const commandOf = (pid: number) => {
  try {
    return readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0').join(' ');
  } catch {
    return '';
  }
};

/** Running, not merely a zombie waiting for a parent to reap it. */
const alive = (pid: number) => {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    return stat.slice(stat.lastIndexOf(')') + 2, stat.lastIndexOf(')') + 3) !== 'Z';
  } catch {
    return false;
  }
};

/** The processes still running after a grace period in which the kernel finishes tearing them down. */
async function survivors(pids: number[]): Promise<number[]> {
  for (let waited = 0; waited < 3_000 && pids.some(alive); waited += 100) await new Promise((r) => setTimeout(r, 100));
  return pids.filter(alive);
}

type Started = { proc: ChildProcess; output: () => string; exit: Promise<number | null> };

async function startStack(env: Record<string, string>): Promise<Started> {
  let text = '';
  const proc = spawn(process.execPath, [entry], { cwd: root, env, stdio: ['ignore', 'pipe', 'pipe'] });
  proc.stdout!.on('data', (chunk: Buffer) => (text += chunk.toString()));
  proc.stderr!.on('data', (chunk: Buffer) => (text += chunk.toString()));
  const exit = new Promise<number | null>((resolve) => proc.once('exit', (code) => resolve(code)));
  const deadline = Date.now() + 90_000;
  while (!/ready — /.test(text)) {
    if (Date.now() > deadline || proc.exitCode !== null) throw new Error(`devstack did not start:\n${text}`);
    await new Promise((r) => setTimeout(r, 200));
  }
  return { proc, output: () => text, exit };
}

/** Runs the devstack until it exits on its own: its exit code and output. */
async function runToEnd(env: Record<string, string>): Promise<{ status: number | null; stdout: string }> {
  let stdout = '';
  const proc = spawn(process.execPath, [entry], { cwd: root, env, stdio: ['ignore', 'pipe', 'pipe'] });
  proc.stdout!.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
  proc.stderr!.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
  const status = await new Promise<number | null>((resolve) => proc.once('exit', (code) => resolve(code)));
  return { status, stdout };
}

/** The embedded MongoDB's heap limit (MB) as the devstack's ready line states it. */
function statedHeapMb(output: string): number {
  return Number(/MongoDB: embedded server ready at .*, memory for data ([\d,]+) MB\)/.exec(output)?.[1]?.replaceAll(',', ''));
}

describe('devstack (npm start)', () => {
  it('refuses bad configuration with one line naming the variable', () => {
    const run = spawnSync(process.execPath, [entry], { cwd: root, env: cleanEnv({ BFF_PORT: 'eighty' }), encoding: 'utf8' });
    expect(run.status).toBe(2);
    expect(run.stderr.trim()).toBe('Invalid configuration: BFF_PORT: must be a port number');
    expect(run.stdout).toBe('');
    const small = spawnSync(process.execPath, [entry], { cwd: root, env: cleanEnv({ EMBEDDED_MONGO_MAX_HEAP_MB: '100' }), encoding: 'utf8' });
    expect(small.status).toBe(2);
    expect(small.stderr.trim()).toBe('Invalid configuration: EMBEDDED_MONGO_MAX_HEAP_MB: must be at least 256');
    const mode = spawnSync(process.execPath, [entry], { cwd: root, env: cleanEnv({ DEVSTACK_PROCESSES: 'several' }), encoding: 'utf8' });
    expect(mode.status).toBe(2);
    expect(mode.stderr.trim()).toBe('Invalid configuration: DEVSTACK_PROCESSES: must be shared or each');
  });

  it('refuses a data directory it cannot write', () => {
    const file = join(dataDir, 'a-file');
    writeFileSync(file, 'x');
    const run = spawnSync(process.execPath, [entry], { cwd: root, env: cleanEnv({ DATA_DIR: join(file, 'sub') }), encoding: 'utf8' });
    expect(run.status).toBe(2);
    expect(run.stderr.trim()).toMatch(/^DATA_DIR .*a-file\/sub is not a writable directory \(ENOTDIR\)$/);
  });

  it('starts the embedded servers, keeps data across a restart and stops cleanly on SIGINT with no orphans', async () => {
    // HOST opens the BFF only: the embedded servers (no credentials) stay on loopback.
    const env = cleanEnv({ DATA_DIR: join(dataDir, 'stack'), HOST: '0.0.0.0' });
    const first = await startStack(env);
    const pids = childrenOf(first.proc.pid!);
    const redisUrl = /Redis: embedded server ready at (redis:\/\/\S+)/.exec(first.output())?.[1];
    expect(redisUrl, first.output()).toBeDefined();
    expect(first.output()).toMatch(/Kafka: embedded server ready at 127\.0\.0\.1:\d+/);
    expect(first.output()).toMatch(/MongoDB: embedded server ready at mongodb:\/\/127\.0\.0\.1:\d+\/\?replicaSet=\w+/);
    // Its data lives in its heap: the limit it runs with is stated (by default at least node's own).
    const heapMb = statedHeapMb(first.output());
    expect(heapMb, first.output()).toBeGreaterThanOrEqual(Math.min(4000, Math.floor(totalmem() / 2 / 1048576)));
    // The embedded servers and one process for every service and the BFF (DEVSTACK_PROCESSES=shared).
    expect(pids.map(commandOf).filter((cmd) => cmd.includes('/apps.mjs'))).toHaveLength(1);
    expect(pids.filter((pid) => readlinkSync(`/proc/${pid}/cwd`).includes('/services/'))).toEqual([]);
    // Four children and nothing else (esbuild's helper is stopped once the children are compiled);
    // each runs compiled JavaScript, none tsx.
    expect(pids.length).toBe(4);
    expect(pids.map(commandOf).filter((cmd) => cmd.includes('tsx') || !/\.build\/[0-9a-f]+\/\w+\.mjs/.test(cmd))).toEqual([]);
    expect(first.output()).toMatch(/^\S+ wallet\s+INFO {2}listening/m);

    // The addresses printed are the ones real clients use; the broker wants the admin's credential.
    const brokers = /Kafka: embedded server ready at (\S+)/.exec(first.output())![1]!;
    const users = JSON.parse(readFileSync(join(dataDir, 'stack', 'kafka-users.json'), 'utf8')) as { users: Record<string, { password: string }> };
    const sasl = { mechanism: 'plain' as const, username: 'admin', password: users.users.admin!.password };
    const admin = new Kafka({ brokers: [brokers], sasl, logLevel: logLevel.NOTHING }).admin();
    await admin.connect();
    await admin.createTopics({ topics: [{ topic: 'devstack-check' }] });
    expect(await admin.listTopics()).toContain('devstack-check');
    await admin.disconnect();
    const mongo = new MongoClient(/MongoDB: embedded server ready at (\S+)/.exec(first.output())![1]!);
    await mongo.db('devstack').collection('checks').insertOne({ kept: true });
    await mongo.close();

    const client = new Redis(redisUrl!);
    await client.set('devstack:kept', 'across restarts');
    client.disconnect();

    first.proc.kill('SIGINT');
    expect(await first.exit, first.output()).toBe(0);
    expect(first.output()).toContain('stopped');
    expect(await survivors(pids)).toEqual([]);

    // A quieter LOG_LEVEL hides the servers' info lines but must not hide the `listening` record
    // the devstack waits for.
    // EMBEDDED_MONGO_MAX_HEAP_MB sets that limit.
    // DEVSTACK_PROCESSES=each: a process per service and the BFF, as compose runs them.
    const second = await startStack({ ...env, LOG_LEVEL: 'warn', EMBEDDED_MONGO_MAX_HEAP_MB: '512', DEVSTACK_PROCESSES: 'each' });
    const secondHeapMb = statedHeapMb(second.output());
    expect(secondHeapMb, second.output()).toBeGreaterThanOrEqual(512);
    expect(secondHeapMb).toBeLessThan(800); // plus the young generation (see mongoNodeArgs)
    expect(second.output()).not.toMatch(/^\S+ (redis|kafka|mongo)\s+INFO/m);
    const again = new Redis(/Redis: embedded server ready at (redis:\/\/\S+)/.exec(second.output())![1]!);
    expect(await again.get('devstack:kept')).toBe('across restarts');
    again.disconnect();
    const mongoAgain = new MongoClient(/MongoDB: embedded server ready at (\S+)/.exec(second.output())![1]!);
    expect(await mongoAgain.db('devstack').collection('checks').countDocuments({ kept: true })).toBe(1);
    await mongoAgain.close();
    const adminAgain = new Kafka({ brokers: [/Kafka: embedded server ready at (\S+)/.exec(second.output())![1]!], sasl, logLevel: logLevel.NOTHING }).admin();
    await adminAgain.connect();
    expect(await adminAgain.listTopics()).toContain('devstack-check');
    await adminAgain.disconnect();
    const secondPids = childrenOf(second.proc.pid!);
    expect(secondPids.some((pid) => readlinkSync(`/proc/${pid}/cwd`).endsWith('services/wallet'))).toBe(true);
    expect(secondPids.map(commandOf).filter((cmd) => cmd.includes('/apps.mjs'))).toEqual([]);
    expect(second.output()).toMatch(/wallet: ready at http:\/\/127\.0\.0\.1:\d+/);
    second.proc.kill('SIGTERM');
    expect(await second.exit, second.output()).toBe(0);
    expect(await survivors(secondPids)).toEqual([]);
  }, 200_000);

  it('uses given infrastructure instead of starting its own, and services reach it', async () => {
    const infra = await startInfra();
    try {
      const env = cleanEnv({
        DATA_DIR: join(dataDir, 'external'),
        REDIS_URL: infra.redis.url,
        KAFKA_BROKERS: infra.kafka.brokers,
        MONGO_URL: infra.mongo.url,
        // As compose sets it: only the BFF may listen on every interface.
        HOST: '0.0.0.0',
      });
      // A service that cannot start stops the start-up with a line naming it and its reason.
      // Not spawnSync: the given servers run in this test's process and must keep answering.
      const refused = await runToEnd({ ...env, ORDER_ID_BLOCK: 'many' });
      expect(refused.status, refused.stdout).toBe(1);
      expect(refused.stdout).toMatch(/auth: ready at/);
      expect(refused.stdout).toMatch(/start-up failed: order failed to start: Invalid configuration: ORDER_ID_BLOCK: /);
      expect(refused.stdout).not.toMatch(/order: ready at/);

      const stack = await startStack(env);
      expect(stack.output()).toContain(`Redis: using REDIS_URL=${infra.redis.url}`);
      expect(stack.output()).toContain(`Kafka: using KAFKA_BROKERS=${infra.kafka.brokers}`);
      expect(stack.output()).not.toContain('embedded server ready');
      expect(stack.output()).toMatch(/wallet: ready at http:\/\/127\.0\.0\.1:\d+/);
      expect(stack.output()).toMatch(/bff: ready at http:\/\/0\.0\.0\.0:\d+/);

      // The shared process of the services and the BFF, killed, is started again on the same addresses.
      const walletUrl = /wallet: ready at (http:\/\/\S+)/.exec(stack.output())![1]!;
      const bffUrl = /bff: ready at (http:\/\/\S+)/.exec(stack.output())![1]!;
      expect((await fetch(`${bffUrl}/healthz`)).status).toBe(200);
      const apps = childrenOf(stack.proc.pid!).find((pid) => commandOf(pid).includes('/apps.mjs'))!;
      process.kill(apps, 'SIGKILL');
      for (let waited = 0; waited < 60_000 && !/apps restarted/.test(stack.output()); waited += 200) await new Promise((r) => setTimeout(r, 200));
      expect(stack.output()).toMatch(/apps exited unexpectedly \(.*SIGKILL.*\); restarting it/);
      expect(stack.output()).toContain('apps restarted');
      expect((await fetch(`${walletUrl}/readyz`)).status).toBe(200);
      expect((await fetch(`${bffUrl}/readyz`)).status).toBe(200);
      expect(stack.proc.exitCode).toBeNull();
      stack.proc.kill('SIGINT');
      expect(await stack.exit).toBe(0);
    } finally {
      await infra.stop();
    }
  }, 100_000);
});
