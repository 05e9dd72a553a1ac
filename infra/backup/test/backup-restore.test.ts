import { type ChildProcess, spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { MongoClient } from 'mongodb';
import { afterAll, describe, expect, it } from 'vitest';
import { eventually, testServiceEnv } from '@smm/testkit';
import type { Manifest } from '../src/index.ts';

// The operator's path, end to end: a devstack on a temporary DATA_DIR takes a few hundred reseller
// orders through the BFF; `npm run backup` runs while they flow; `npm run restore` fills an empty
// DATA_DIR; the product starts on it and the wallet's ledger check finds the books exact.
const root = fileURLToPath(new URL('../../../', import.meta.url));
const work = mkdtempSync(join(tmpdir(), 'smm-backup-test-'));
const stacks: Stack[] = [];

type Stack = { output: () => string; bff: string; mongo: string; stop(): Promise<void> };

function baseEnv(extra: Record<string, string>): Record<string, string> {
  return { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '/root', NO_COLOR: '1', LOG_LEVEL: 'warn', ...testServiceEnv, ...extra };
}

async function startDevstack(dataDir: string): Promise<Stack> {
  const env = baseEnv({ DATA_DIR: dataDir, API_RATE_LIMIT_PER_MINUTE: '100000000', LOGIN_MAX_ATTEMPTS_PER_IP: '10000' });
  let output = '';
  const proc: ChildProcess = spawn(process.execPath, ['infra/devstack/bin/start.mjs'], { cwd: root, env, stdio: ['ignore', 'pipe', 'pipe'] });
  proc.stdout!.on('data', (c: Buffer) => (output += c.toString()));
  proc.stderr!.on('data', (c: Buffer) => (output += c.toString()));
  const exited = new Promise<void>((resolve) => proc.once('exit', () => resolve()));
  const stack: Stack = {
    output: () => output,
    bff: '',
    mongo: '',
    async stop() {
      if (proc.exitCode === null && proc.signalCode === null) {
        proc.kill('SIGINT');
        const timer = setTimeout(() => proc.kill('SIGKILL'), 120_000);
        await exited;
        clearTimeout(timer);
      }
    },
  };
  stacks.push(stack);
  const deadline = Date.now() + 180_000;
  while (!/ready — /.test(output)) {
    if (Date.now() > deadline || proc.exitCode !== null) throw new Error(`devstack did not start:\n${output.slice(-4000)}`);
    await new Promise((r) => setTimeout(r, 200));
  }
  stack.bff = /bff: ready at (http:\/\/\S+)/.exec(output)![1]!;
  stack.mongo = /MongoDB: embedded server ready at (\S+)/.exec(output)![1]!;
  return stack;
}

/** Runs an npm command from the repository root, as an operator would; resolves with its exit code and output. */
function npm(args: string[], env: Record<string, string>): Promise<{ code: number | null; out: string }> {
  return new Promise((resolve) => {
    const child = spawn('npm', args, { cwd: root, env: baseEnv(env), stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    child.stdout.on('data', (c: Buffer) => (out += c.toString()));
    child.stderr.on('data', (c: Buffer) => (out += c.toString()));
    child.once('exit', (code) => resolve({ code, out }));
  });
}

async function call(base: string, method: string, path: string, options: { token?: string; body?: unknown } = {}) {
  const headers: Record<string, string> = {};
  if (options.token) headers.authorization = `Bearer ${options.token}`;
  if (options.body !== undefined) headers['content-type'] = 'application/json';
  const res = await fetch(`${base}/api${path}`, { method, headers, body: options.body === undefined ? undefined : JSON.stringify(options.body) });
  const text = await res.text();
  const body = (text ? JSON.parse(text) : null) as Record<string, unknown>;
  if (res.status >= 400 && !(path === '/service/order' && body?.code)) throw new Error(`${method} ${path} answered ${res.status} ${text}`);
  return body;
}

function databaseUrl(server: string, db: string): string {
  const url = new URL(server);
  url.pathname = `/${db}`;
  return url.toString();
}

afterAll(async () => {
  for (const stack of stacks) await stack.stop();
  rmSync(work, { recursive: true, force: true });
});

describe('npm run backup / npm run restore', () => {
  it('a backup taken while orders flow restores into an empty DATA_DIR, the product starts on it, and the ledger is exact', async () => {
    // A retry (CI runs a failed test once more) starts clean: the failed attempt's stacks stopped,
    // its directories left to the final clean-up.
    for (const stack of stacks.splice(0)) await stack.stop();
    const attempt = mkdtempSync(join(work, 'attempt-'));
    const first = await startDevstack(join(attempt, 'data-a'));
    const bff = first.bff;
    const adminPassword = /admin account: id admin, password (\S+)/.exec(first.output())![1]!;
    const admin = String((await call(bff, 'POST', '/auth/login', { body: { id: 'admin', password: adminPassword } })).accessToken);
    const id = `backup${Date.now().toString(36)}`;
    await call(bff, 'POST', '/auth/register', { body: { id, password: 'backup-1234', email: `${id}@example.com`, registerWhere: '기타' } });
    const token = String((await call(bff, 'POST', '/auth/login', { body: { id, password: 'backup-1234' } })).accessToken);
    for (let i = 0; i < 100 && !(await fetch(`${bff}/api/auth/profile`, { headers: { authorization: `Bearer ${token}` } })).ok; i++) {
      await new Promise((r) => setTimeout(r, 200));
    }
    const topUp = await call(bff, 'POST', '/service/point', { token, body: { name: '백업 시험', point: 1_000_000, feeType: 'none' } });
    await call(bff, 'POST', `/admin/top-ups/${String(topUp.id)}/approve`, { token: admin });
    const categories = (await call(bff, 'GET', '/service/categorys')) as unknown as Array<{ id: number }>;
    const product = await call(bff, 'POST', '/admin/services', {
      token: admin,
      body: { text: `백업 상품 ${id}`, categoryId: categories[0]!.id, min: 10, max: 100_000, point: 3, enableAuto: false, isReadOnly: false, notice: '' },
    });
    const serviceId = Number(product.id);
    for (let i = 0; (await call(bff, 'POST', '/service/order', { token, body: { serviceId, link: 'probe', amount: 0 } })).code !== 'AMOUNT_BELOW_MIN'; i++) {
      if (i > 150) throw new Error('the order service never learnt the product');
      await new Promise((r) => setTimeout(r, 200));
    }
    const apiKey = String((await call(bff, 'POST', '/auth/api-key', { token })).apiKey);

    // Orders from 6 callers: the backup starts once 100 are in, and the callers keep ordering until
    // it has finished (at least 300 in all), so it runs during traffic however fast either side is.
    const atLeast = 300;
    const cap = 5000; // a backup that never ends fails below rather than ordering forever
    let next = 0;
    let backupDone = false;
    const statuses = new Map<number, number>();
    const caller = async () => {
      while ((next < atLeast || !backupDone) && next < cap) {
        const n = next++;
        const res = await fetch(`${bff}/api/order`, {
          method: 'POST',
          headers: { 'api-key': apiKey, 'content-type': 'application/json' },
          body: JSON.stringify({ serviceId, link: `https://x.example/${n}`, amount: 10 + (n % 7) }),
        });
        await res.arrayBuffer();
        statuses.set(res.status, (statuses.get(res.status) ?? 0) + 1);
      }
    };
    const traffic = Promise.all(Array.from({ length: 6 }, caller));
    while (next < 100) await new Promise((r) => setTimeout(r, 50));
    const backupDir = join(attempt, 'backup');
    const atBackupStart = next;
    const taken = await npm(['run', 'backup', '--', backupDir], { MONGO_URL: first.mongo, DATA_DIR: join(attempt, 'data-a') });
    const atBackupEnd = next;
    backupDone = true;
    await traffic;
    expect(taken.code, taken.out).toBe(0);
    expect(atBackupEnd).toBeGreaterThan(atBackupStart); // the backup really ran during traffic
    expect(atBackupEnd).toBeLessThan(cap);
    expect(statuses.get(201) ?? 0).toBeGreaterThan(next * 0.9);
    await first.stop();

    const manifest = JSON.parse(readFileSync(join(backupDir, 'manifest.json'), 'utf8')) as Manifest;
    expect(Object.keys(manifest.databases)).toEqual(expect.arrayContaining(['auth', 'catalog', 'wallet', 'order', 'scheduler']));
    expect(manifest.secrets).toBe(true);
    expect(statSync(join(backupDir, 'secrets.json')).mode & 0o777).toBe(0o600);
    const ordersInBackup = manifest.databases.order!.orders ?? 0;
    expect(ordersInBackup).toBeGreaterThan(0);

    const restoredDir = join(attempt, 'data-b');
    const restored = await npm(['run', 'restore', '--', backupDir], { DATA_DIR: restoredDir });
    expect(restored.code, restored.out).toBe(0);
    expect(existsSync(join(restoredDir, 'secrets.json'))).toBe(true);
    // A second restore into the same place refuses rather than mixing data.
    const again = await npm(['run', 'restore', '--', backupDir], { DATA_DIR: restoredDir });
    expect(again.code).not.toBe(0);
    expect(again.out).toContain('already holds data');

    const second = await startDevstack(restoredDir);
    const check = await npm(['run', 'ledger:check', '-w', '@smm/wallet'], { MONGO_URL: databaseUrl(second.mongo, 'wallet') });
    expect(check.code, check.out).toBe(0);
    expect(check.out).toMatch(/ledger check OK: \d+ accounts, [1-9]\d* entries, .* 0 violations/);
    // Orders still awaiting their payment at the snapshot get it after the restore: the wallet's
    // outcome events are republished from its outbox (the old Kafka log is gone), and nothing stays stuck.
    const awaitingInBackup = readFileSync(join(backupDir, 'mongo/order/orders.ejson'), 'utf8').split('\n').filter((l) => l.includes('"payment":"awaiting"')).length;
    const client = await MongoClient.connect(second.mongo);
    try {
      const orders = client.db('order').collection('orders');
      expect(await orders.countDocuments()).toBe(ordersInBackup);
      await eventually(() => orders.countDocuments({ payment: 'awaiting' }), (n) => n === 0, 90_000);
    } finally {
      await client.close();
    }
    console.log(`backup held ${ordersInBackup} orders, ${awaitingInBackup} awaiting payment; all settled after the restore`);
    // The restored product works: the member logs in with the restored account and sees the restored balance.
    const login = await call(second.bff, 'POST', '/auth/login', { body: { id, password: 'backup-1234' } });
    const profile = await call(second.bff, 'GET', '/auth/profile', { token: String(login.accessToken) });
    expect(Number(profile.point)).toBeLessThan(1_000_000);
    await second.stop();
  });
});
