// Orders through the whole saga: reseller POST /api/order (BFF → auth key resolve (cached) → order
// service → Kafka → wallet debit → Kafka → order) and GET /api/services, against a devstack.
// Run: npm run bench:orders -w @smm/bff
//   BENCH_BFF_URL + BENCH_ADMIN_PASSWORD (+ BENCH_ORDER_URL): use a running devstack;
//   otherwise a devstack is started in a temporary DATA_DIR and stopped afterwards.
//   BENCH_SECONDS (15), BENCH_CONCURRENCY (32), BENCH_RATE (100 per second).
import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const SECONDS = Number(process.env.BENCH_SECONDS ?? 15);
const CONCURRENCY = Number(process.env.BENCH_CONCURRENCY ?? 32);
const RATE = Number(process.env.BENCH_RATE ?? 100);
const root = fileURLToPath(new URL('../../', import.meta.url));

type Stack = { bffUrl: string; orderUrl: string | undefined; adminPassword: string; stop(): Promise<void> };

async function startDevstack(): Promise<Stack> {
  const dataDir = mkdtempSync(join(tmpdir(), 'bff-bench-'));
  const env: Record<string, string> = {
    PATH: process.env.PATH ?? '',
    HOME: process.env.HOME ?? '/root',
    NO_COLOR: '1',
    DATA_DIR: dataDir,
    API_RATE_LIMIT_PER_MINUTE: '100000000',
    LOGIN_MAX_ATTEMPTS_PER_IP: '10000',
  };
  let output = '';
  const proc: ChildProcess = spawn(process.execPath, ['--import', 'tsx', 'infra/devstack/src/main.ts'], { cwd: root, env, stdio: ['ignore', 'pipe', 'pipe'] });
  proc.stdout!.on('data', (c: Buffer) => (output += c.toString()));
  proc.stderr!.on('data', (c: Buffer) => (output += c.toString()));
  const exited = new Promise<void>((resolve) => proc.once('exit', () => resolve()));
  const stop = async () => {
    if (proc.exitCode === null) {
      proc.kill('SIGINT');
      const timer = setTimeout(() => proc.kill('SIGKILL'), 120_000); // its own stop takes long under load; a SIGKILL would orphan the embedded servers
      await exited;
      clearTimeout(timer);
    }
    rmSync(dataDir, { recursive: true, force: true });
  };
  const deadline = Date.now() + 150_000;
  while (!/ready — /.test(output)) {
    if (Date.now() > deadline || proc.exitCode !== null) {
      await stop();
      throw new Error(`devstack did not start:\n${output.slice(-4000)}`);
    }
    await new Promise((r) => setTimeout(r, 200));
  }
  const find = (re: RegExp) => re.exec(output)?.[1];
  const ready = output;
  // keep draining the children's log lines, without holding them
  proc.stdout!.removeAllListeners('data').on('data', () => undefined);
  proc.stderr!.removeAllListeners('data').on('data', () => undefined);
  output = ready;
  return { bffUrl: find(/bff: ready at (http:\/\/\S+)/)!, orderUrl: find(/order: ready at (http:\/\/\S+)/), adminPassword: find(/admin account: id admin, password (\S+)/)!, stop };
}

async function call(base: string, method: string, path: string, options: { token?: string; body?: unknown; headers?: Record<string, string> } = {}) {
  const headers: Record<string, string> = { ...options.headers };
  if (options.token) headers.authorization = `Bearer ${options.token}`;
  if (options.body !== undefined) headers['content-type'] = 'application/json';
  const res = await fetch(`${base}${path}`, { method, headers, body: options.body === undefined ? undefined : JSON.stringify(options.body) });
  const text = await res.text();
  return { status: res.status, body: (text ? JSON.parse(text) : null) as Record<string, unknown> };
}

function must(answer: { status: number; body: Record<string, unknown> }, what: string, ok = [200, 201]) {
  if (!ok.includes(answer.status)) throw new Error(`${what} answered ${answer.status} ${JSON.stringify(answer.body)}`);
  return answer.body;
}

type Result = { latencies: number[]; statuses: Map<number, number>; seconds: number };
const pct = (sorted: number[], p: number) => (sorted.length === 0 ? NaN : sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * p))]!);

function report(name: string, r: Result, accepted?: number) {
  const sorted = [...r.latencies].sort((a, b) => a - b);
  const statuses = [...r.statuses].map(([s, n]) => `${s}×${n}`).join(' ');
  const ok = accepted ?? r.latencies.length;
  console.log(`${name.padEnd(58)} ${(ok / r.seconds).toFixed(1).padStart(7)} /s   p50 ${pct(sorted, 0.5).toFixed(1).padStart(6)} ms   p99 ${pct(sorted, 0.99).toFixed(1).padStart(7)} ms   [${statuses}]`);
}

/** Closed loop: `concurrency` callers back to back for `seconds`. */
async function sustained(request: () => Promise<Response>, seconds: number, concurrency: number): Promise<Result> {
  const latencies: number[] = [];
  const statuses = new Map<number, number>();
  const started = performance.now();
  const end = started + seconds * 1000;
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      while (performance.now() < end) {
        const t = performance.now();
        const res = await request();
        await res.arrayBuffer();
        latencies.push(performance.now() - t);
        statuses.set(res.status, (statuses.get(res.status) ?? 0) + 1);
      }
    }),
  );
  return { latencies, statuses, seconds: (performance.now() - started) / 1000 };
}

/** Open loop: one request every 1/rate s whatever the answers do, so latency is not hidden by waiting. */
async function steady(request: () => Promise<Response>, seconds: number, rate: number): Promise<Result> {
  const latencies: number[] = [];
  const statuses = new Map<number, number>();
  const started = performance.now();
  const total = Math.round(seconds * rate);
  const pending: Promise<void>[] = [];
  for (let i = 0; i < total; i++) {
    const due = started + (i * 1000) / rate;
    const wait = due - performance.now();
    if (wait > 0) await new Promise((r) => setTimeout(r, wait));
    pending.push(
      (async () => {
        const t = performance.now();
        const res = await request();
        await res.arrayBuffer();
        latencies.push(performance.now() - t);
        statuses.set(res.status, (statuses.get(res.status) ?? 0) + 1);
      })(),
    );
  }
  await Promise.all(pending);
  return { latencies, statuses, seconds: (performance.now() - started) / 1000 };
}

const given = process.env.BENCH_BFF_URL;
const stack: Stack = given
  ? { bffUrl: given, orderUrl: process.env.BENCH_ORDER_URL, adminPassword: process.env.BENCH_ADMIN_PASSWORD ?? '', stop: async () => undefined }
  : await startDevstack();
try {
  const api = `${stack.bffUrl}/api`;
  const admin = String(must(await call(api, 'POST', '/auth/login', { body: { id: 'admin', password: stack.adminPassword } }), 'admin login').accessToken);
  const id = `bench${Date.now().toString(36)}`;
  const reg = must(await call(api, 'POST', '/auth/register', { body: { id, password: 'bench-1234', email: `${id}@example.com`, registerWhere: '검색' } }), 'register');
  const token = String(must(await call(api, 'POST', '/auth/login', { body: { id, password: 'bench-1234' } }), 'login').accessToken);
  const userId = String(reg.userId);
  for (let i = 0; i < 50; i++) {
    if ((await call(api, 'GET', '/auth/profile', { token })).status === 200) break;
    await new Promise((r) => setTimeout(r, 200));
  }
  // a big balance: 5 × 10,000,000 won
  for (let i = 0; i < 5; i++) {
    const asked = must(await call(api, 'POST', '/service/point', { token, body: { name: `벤치 ${i}`, point: 10_000_000, feeType: 'none' } }), 'top-up');
    must(await call(api, 'POST', `/admin/top-ups/${String(asked.id)}/approve`, { token: admin }), 'approve');
  }
  const categories = (await call(api, 'GET', '/service/categorys')).body as unknown as Array<{ id: number }>;
  const categoryId = categories[0]?.id ?? Number(must(await call(api, 'POST', '/admin/categories', { token: admin, body: { text: '벤치', platformId: 1 } }), 'category').id);
  const product = must(await call(api, 'POST', '/admin/services', { token: admin, body: { text: `벤치 상품 ${id}`, categoryId, min: 10, max: 100_000, point: 1, enableAuto: false, isReadOnly: false, notice: '' } }), 'service');
  const serviceId = Number(product.id);
  for (let i = 0; ; i++) {
    const probe = await call(api, 'POST', '/service/order', { token, body: { serviceId, link: 'probe', amount: 0 } });
    if (probe.body?.code === 'AMOUNT_BELOW_MIN') break;
    if (i > 100) throw new Error('the order service never learnt the product');
    await new Promise((r) => setTimeout(r, 200));
  }
  const apiKey = String(must(await call(api, 'POST', '/auth/api-key', { token }), 'api key').apiKey);
  const keyed = { 'api-key': apiKey, 'content-type': 'application/json' };
  let n = 0;
  const order = () => fetch(`${api}/order`, { method: 'POST', headers: keyed, body: JSON.stringify({ serviceId, link: `https://x.example/${n++}`, amount: 10 }) });
  const services = () => fetch(`${api}/services`, { headers: { 'api-key': apiKey } });
  const direct = () =>
    fetch(`${stack.orderUrl}/orders?waitMs=5000`, { method: 'POST', headers: { 'content-type': 'application/json', 'x-user-id': userId, 'x-user-role': 'member' }, body: JSON.stringify({ serviceId, link: `https://x.example/d${n++}`, amount: 10, source: 'api' }) });

  console.log(`node ${process.version}; ${SECONDS} s per scenario; sustained = ${CONCURRENCY} concurrent callers; steady = ${RATE} requests/s open loop`);
  await sustained(services, 2, 8); // warm-up
  await sustained(order, 2, 8);
  const a = await sustained(order, SECONDS, CONCURRENCY);
  report(`POST /api/order sustained (accepted orders/s)`, a, a.statuses.get(201) ?? 0);
  const b = await steady(order, SECONDS, RATE);
  report(`POST /api/order steady ${RATE}/s`, b, b.statuses.get(201) ?? 0);
  if (stack.orderUrl) {
    const c = await steady(direct, SECONDS, RATE);
    report(`order service POST /orders direct, steady ${RATE}/s (no BFF)`, c, c.statuses.get(201) ?? 0);
  }
  report('GET /api/services sustained', await sustained(services, SECONDS, CONCURRENCY));
  report(`GET /api/services steady ${RATE}/s`, await steady(services, SECONDS, RATE));
  const balance = must(await call(api, 'GET', '/auth/profile', { token }), 'profile');
  console.log(`balance left: ${String(balance.point)} won`);
} finally {
  await stack.stop();
}
