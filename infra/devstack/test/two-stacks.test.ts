import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, readlinkSync, rmSync } from 'node:fs';
import { type Server, createServer } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, expect, it } from 'vitest';
import { type Infra, startInfra } from '@smm/testkit';
import { childrenOf, cleanEnv, listeningPorts } from './support.ts';

const root = fileURLToPath(new URL('../../../', import.meta.url));
const entry = join(root, 'infra/devstack/bin/start.mjs');
const dataDir = mkdtempSync(join(tmpdir(), 'devstack-two-'));
const infras: Infra[] = [];
const procs: ChildProcess[] = [];
const strangers: Server[] = [];
afterAll(async () => {
  // Each stack runs in a process group of its own: a failed test takes its services down with it.
  for (const proc of procs) {
    try {
      process.kill(-proc.pid!, 'SIGKILL');
    } catch {
      // the group is gone already
    }
  }
  for (const stranger of strangers) stranger.close();
  for (const infra of infras) await infra.stop();
  rmSync(dataDir, { recursive: true, force: true });
});

type Stack = { proc: ChildProcess; output: () => string; exit: Promise<number | null> };

function launch(name: string, infra: Infra): Stack {
  let text = '';
  // Each its own infrastructure, both the same preferred ports for the services and the BFF.
  const env = cleanEnv({ DATA_DIR: join(dataDir, name), REDIS_URL: infra.redis.url, KAFKA_BROKERS: infra.kafka.brokers, MONGO_URL: infra.mongo.url, LOG_LEVEL: 'warn' });
  const proc = spawn(process.execPath, [entry], { cwd: root, env, stdio: ['ignore', 'pipe', 'pipe'], detached: true });
  procs.push(proc);
  proc.stdout!.on('data', (chunk: Buffer) => (text += chunk.toString()));
  proc.stderr!.on('data', (chunk: Buffer) => (text += chunk.toString()));
  return { proc, output: () => text, exit: new Promise((resolve) => proc.once('exit', (code) => resolve(code))) };
}

async function ready(stack: Stack): Promise<void> {
  for (const deadline = Date.now() + 240_000; !/ready — /.test(stack.output()); await new Promise((r) => setTimeout(r, 200))) {
    if (Date.now() > deadline || stack.proc.exitCode !== null) throw new Error(`devstack did not start:\n${stack.output()}`);
  }
}

/**
 * As soon as `stack` has started its auth service — after the devstack saw auth's preferred port
 * free, before the child binds it — a stranger takes that port and answers 200 to everything: the
 * other copy's service winning the race, every time instead of now and then.
 */
async function stealAuthPort(stack: Stack): Promise<void> {
  for (const deadline = Date.now() + 120_000; Date.now() < deadline; await new Promise((r) => setTimeout(r, 20))) {
    const auth = childrenOf(stack.proc.pid!).find((pid) => {
      try {
        // auth alone (DEVSTACK_PROCESSES=each) or the shared process that starts it first
        return readlinkSync(`/proc/${pid}/cwd`).endsWith('services/auth') || readFileSync(`/proc/${pid}/cmdline`, 'utf8').includes('/apps.mjs');
      } catch {
        return false;
      }
    });
    if (auth === undefined) continue;
    const stranger = createServer((_req, res) => res.end('{"status":"ready"}'));
    await new Promise<void>((resolve, reject) => stranger.once('error', reject).listen(4101, '127.0.0.1', () => resolve()));
    strangers.push(stranger);
    return;
  }
  throw new Error(`auth never started:\n${stack.output()}`);
}

it('two devstacks started at the same moment each come up wired only to their own services', async () => {
  infras.push(await startInfra(), await startInfra());
  const stacks = [launch('a', infras[0]!), launch('b', infras[1]!)];
  await stealAuthPort(stacks[0]!);
  await Promise.all(stacks.map(ready));
  const seen = new Set<number>();
  for (const stack of stacks) {
    const own = new Set(childrenOf(stack.proc.pid!).flatMap(listeningPorts));
    const addresses = [...stack.output().matchAll(/(\w+): ready at http:\/\/[\d.]+:(\d+)/g)].map((m) => ({ name: m[1]!, port: Number(m[2]) }));
    expect(addresses.map((a) => a.name).sort(), stack.output()).toEqual(['auth', 'bff', 'catalog', 'fulfillment', 'order', 'scheduler', 'support', 'wallet']);
    // Every address the stack wired its BFF and services to is held by one of its own children.
    for (const { name, port } of addresses) {
      expect(own.has(port), `${name} on ${port}:\n${stack.output()}`).toBe(true);
      expect(seen.has(port), `${name} on ${port} claimed by both stacks`).toBe(false);
      seen.add(port);
    }
    const bff = addresses.find((a) => a.name === 'bff')!;
    expect((await fetch(`http://127.0.0.1:${bff.port}/readyz`)).status).toBe(200);
  }
  for (const stack of stacks) stack.proc.kill('SIGINT');
  expect(await Promise.all(stacks.map((s) => s.exit))).toEqual([0, 0]);
}, 300_000);
