// The devstack and the reseller a benchmark orders as, shared by bench:orders and bench:wrk.
import { type ChildProcess, spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('../../', import.meta.url));

/** The secret the stack's services verify (given to a devstack this script starts; with BENCH_BFF_URL, that stack's). */
export const serviceSecret = process.env.SERVICE_AUTH_SECRET ?? randomBytes(32).toString('hex');

export type Stack = { bffUrl: string; orderUrl: string | undefined; adminPassword: string; pid?: number | undefined; mongoUrl?: string | undefined; kafkaBrokers?: string | undefined; dataDir?: string | undefined; stop(): Promise<void> };

export async function startDevstack(): Promise<Stack> {
  const dataDir = mkdtempSync(join(tmpdir(), 'bff-bench-'));
  const env: Record<string, string> = {
    PATH: process.env.PATH ?? '',
    HOME: process.env.HOME ?? '/root',
    NO_COLOR: '1',
    DATA_DIR: dataDir,
    API_RATE_LIMIT_PER_MINUTE: '100000000',
    LOGIN_MAX_ATTEMPTS_PER_IP: '10000',
    // Given to the devstack so the direct-to-order scenario can sign its calls like the BFF.
    SERVICE_AUTH_SECRET: serviceSecret,
    // DEVSTACK_PROCESSES=each: a process per service and the BFF instead of the shared one (to compare)
    ...(process.env.DEVSTACK_PROCESSES ? { DEVSTACK_PROCESSES: process.env.DEVSTACK_PROCESSES } : {}),
    // BFF_PORT: a fixed port for the stack's BFF (e.g. when another devstack holds the default one)
    ...(process.env.BFF_PORT ? { BFF_PORT: process.env.BFF_PORT } : {}),
    // BENCH_PROFILE_DIR: every process can be profiled on SIGUSR2 (see cpu-profile.mjs)
    ...(process.env.BENCH_PROFILE_DIR
      ? { BENCH_PROFILE_DIR: process.env.BENCH_PROFILE_DIR, NODE_OPTIONS: `--import ${fileURLToPath(new URL('./cpu-profile.mjs', import.meta.url))}` }
      : {}),
    // BENCH_NODE_OPTIONS: node options for every process of the stack (e.g. to compare V8 settings)
    ...(process.env.BENCH_NODE_OPTIONS ? { NODE_OPTIONS: `${process.env.BENCH_NODE_OPTIONS} ${process.env.BENCH_PROFILE_DIR ? `--import ${fileURLToPath(new URL('./cpu-profile.mjs', import.meta.url))}` : ''}`.trim() } : {}),
  };
  let output = '';
  const proc: ChildProcess = spawn(process.execPath, ['infra/devstack/bin/start.mjs'], { cwd: root, env, stdio: ['ignore', 'pipe', 'pipe'] });
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
  const deadline = Date.now() + 300_000; // a loaded machine starts ten processes slowly
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
  return { bffUrl: find(/bff: ready at (http:\/\/\S+)/)!, orderUrl: find(/order: ready at (http:\/\/\S+)/), adminPassword: find(/admin account: id admin, password (\S+)/)!, pid: proc.pid, mongoUrl: find(/MongoDB: embedded server ready at (\S+)/), kafkaBrokers: find(/Kafka: embedded server ready at (\S+)/), dataDir, stop };
}

export async function call(base: string, method: string, path: string, options: { token?: string; body?: unknown; headers?: Record<string, string> } = {}) {
  const headers: Record<string, string> = { ...options.headers };
  if (options.token) headers.authorization = `Bearer ${options.token}`;
  if (options.body !== undefined) headers['content-type'] = 'application/json';
  const res = await fetch(`${base}${path}`, { method, headers, body: options.body === undefined ? undefined : JSON.stringify(options.body) });
  const text = await res.text();
  return { status: res.status, body: (text ? JSON.parse(text) : null) as Record<string, unknown> };
}

export function must(answer: { status: number; body: Record<string, unknown> }, what: string, ok = [200, 201]) {
  if (!ok.includes(answer.status)) throw new Error(`${what} answered ${answer.status} ${JSON.stringify(answer.body)}`);
  return answer.body;
}


/** A member with 50,000,000 won, an API key and a product the order service knows (1 won per unit). */
export async function prepareReseller(stack: Stack): Promise<{ token: string; userId: string; serviceId: number; apiKey: string }> {
  const api = `${stack.bffUrl}/api`;
  const admin = String(must(await call(api, 'POST', '/auth/login', { body: { id: 'admin', password: stack.adminPassword } }), 'admin login').accessToken);
  const id = `bench${Date.now().toString(36)}`;
  const reg = must(await call(api, 'POST', '/auth/register', { body: { id, password: 'bench-1234', email: `${id}@example.com`, registerWhere: '기타' } }), 'register');
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
  return { token, userId, serviceId, apiKey };
}
