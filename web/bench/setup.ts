import { loadavg } from 'node:os';
import { type Devstack, startDevstack } from '../test/e2e/support/devstack.ts';

// What the page benchmarks (lighthouse.ts, blocking.ts) share: the pages, and the member they sign
// in as — registered through the API, with a balance an operator approved, two orders and an auto
// order (what a returning member's pages show).

export type Member = { id: string; password: string };

/** The member pages of the spec (§2 routes); `member` pages are measured signed in. */
export type Page = { name: string; path: string; member: boolean };

export const allPages: Page[] = [
  { name: 'landing', path: '/', member: false },
  { name: 'login', path: '/login', member: false },
  { name: 'register', path: '/register', member: false },
  { name: 'terms', path: '/terms/service', member: false },
  { name: 'order', path: '/order', member: true },
  { name: 'order-history', path: '/order-history', member: true },
  { name: 'auto-history', path: '/auto-order-history', member: true },
  { name: 'point', path: '/point', member: true },
  { name: 'account', path: '/account', member: true },
  { name: 'price-list', path: '/price-list', member: true },
  { name: 'qna', path: '/qna', member: true },
  { name: 'api-docs', path: '/api', member: true },
];

/** The pages BENCH_PATHS names (page names or paths, comma-separated), all of them by default. */
export function pagesFromEnv(): Page[] {
  const wanted = process.env.BENCH_PATHS?.split(',').map((v) => v.trim()).filter(Boolean);
  return wanted ? allPages.filter((p) => wanted.includes(p.name) || wanted.includes(p.path)) : allPages;
}

async function call<T = Record<string, unknown>>(base: string, method: string, path: string, options: { token?: string; body?: unknown } = {}): Promise<{ status: number; body: T }> {
  const headers: Record<string, string> = {};
  if (options.token) headers.authorization = `Bearer ${options.token}`;
  if (options.body !== undefined) headers['content-type'] = 'application/json';
  const res = await fetch(new URL(`/api${path}`, base), { method, headers, body: options.body === undefined ? undefined : JSON.stringify(options.body) });
  const text = await res.text();
  return { status: res.status, body: (text === '' ? null : JSON.parse(text)) as T };
}

export async function login(base: string, member: Member): Promise<string> {
  const res = await call<{ accessToken: string }>(base, 'POST', '/auth/login', { body: { id: member.id, password: member.password } });
  if (res.status !== 200) throw new Error(`login answered ${res.status} ${JSON.stringify(res.body)}`);
  return res.body.accessToken;
}

async function until<T>(what: string, probe: () => Promise<T>, ok: (value: T) => boolean): Promise<T> {
  const deadline = Date.now() + 30_000;
  for (;;) {
    const value = await probe().catch(() => undefined);
    if (value !== undefined && ok(value)) return value;
    if (Date.now() > deadline) throw new Error(`${what}: not reached in 30 s (last ${JSON.stringify(value)})`);
    await new Promise((r) => setTimeout(r, 300));
  }
}

/** A member with a balance, two orders and an auto order (what a returning member's pages show). */
export async function prepareMember(base: string, adminPassword: string | undefined): Promise<Member> {
  const member = { id: `lh${Date.now().toString(36).slice(-8)}`, password: 'bench-pass-1' };
  const reg = await call(base, 'POST', '/auth/register', { body: { id: member.id, password: member.password, email: `${member.id}@example.com`, registerWhere: '기타' } });
  if (reg.status !== 201) throw new Error(`register answered ${reg.status} ${JSON.stringify(reg.body)}`);
  const token = await login(base, member);
  if (!adminPassword) return member;
  const admin = (await call<{ accessToken: string }>(base, 'POST', '/auth/login', { body: { id: 'admin', password: adminPassword } })).body.accessToken;
  // The wallet opens the account when it consumes the registration event.
  await until('top-up accepted', async () => (await call(base, 'POST', '/service/point', { token, body: { name: '홍길동', point: 100_000, feeType: 'none', feeValue: null } })).status, (s) => s === 201);
  const pending = await call<{ items: Array<{ id: number; userId: string }> }>(base, 'GET', '/admin/top-ups?status=0&pageSize=100', { token: admin });
  for (const topUp of pending.body.items) await call(base, 'POST', `/admin/top-ups/${topUp.id}/approve`, { token: admin });
  await until('balance', async () => (await call<{ pointDeci: number }>(base, 'GET', '/auth/profile', { token })).body.pointDeci, (deci) => deci > 0);
  const services = (await call<Array<{ id: number; min: number; enableAuto: boolean; isReadOnly: boolean }>>(base, 'GET', '/service/services')).body;
  const one = services.find((s) => !s.isReadOnly);
  const auto = services.find((s) => !s.isReadOnly && s.enableAuto);
  if (one) {
    for (const n of [1, 2]) await call(base, 'POST', '/service/order', { token, body: { serviceId: one.id, link: `https://www.instagram.com/p/bench-${n}`, amount: one.min, runs: 0, interval: 0 } });
  }
  if (auto) await call(base, 'POST', '/service/order', { token, body: { serviceId: auto.id, link: 'https://www.instagram.com/p/bench-auto', amount: auto.min, runs: 3, interval: 1440 } });
  return member;
}

/** The three load averages, for the benchmarks' printouts. */
export const loadAverages = () => loadavg().map((v) => v.toFixed(2)).join(' ');

/**
 * The app a page benchmark measures and the member it signs in as: the running app at BENCH_URL
 * (its operator's password in BENCH_ADMIN_PASSWORD, else the histories stay empty), or the product
 * started like `npm start` in a throwaway data directory on free ports. `stop` ends what was started.
 */
export async function appUnderTest(prefix: string): Promise<{ base: string; member: Member; stop(): Promise<void> }> {
  let base = process.env.BENCH_URL;
  let adminPassword = process.env.BENCH_ADMIN_PASSWORD;
  let stack: Devstack | undefined;
  if (!base) {
    console.log('starting the devstack (temporary data directory, free ports)…');
    stack = await startDevstack({}, { prefix });
    base = stack.find(/bff: ready at (http:\/\/\S+)/, 'bff address');
    adminPassword = stack.find(/admin account: id admin, password (\S+)/, 'admin password');
  }
  const stop = async () => {
    await stack?.stop();
  };
  try {
    return { base, member: await prepareMember(base, adminPassword), stop };
  } catch (error) {
    await stop();
    throw error;
  }
}
