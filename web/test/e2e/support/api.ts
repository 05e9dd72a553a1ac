import { randomInt } from 'node:crypto';
import { inject } from 'vitest';
import { callerHeaders } from '@smm/testkit';

/** What the global setup started (BFF and auth addresses, admin password, browser endpoint). */
export const stack = () => inject('stack');

export type Answer<T = Record<string, unknown>> = { status: number; body: T };

/** One call to the BFF's public API (`/api…`), the way an operator script or the web app makes it. */
export async function api<T = Record<string, unknown>>(method: string, path: string, options: { token?: string; body?: unknown } = {}): Promise<Answer<T>> {
  const headers: Record<string, string> = {};
  if (options.token !== undefined) headers.authorization = `Bearer ${options.token}`;
  if (options.body !== undefined) headers['content-type'] = 'application/json';
  const res = await fetch(`${stack().bffUrl}/api${path}`, { method, headers, body: options.body === undefined ? undefined : JSON.stringify(options.body) });
  const text = await res.text();
  return { status: res.status, body: (text === '' ? null : JSON.parse(text)) as T };
}

/** Polls `probe` until `accept` holds (or throws with the last value after `ms`). */
export async function eventually<T>(probe: () => Promise<T>, accept: (value: T) => boolean, ms = 20_000, what = 'condition'): Promise<T> {
  const deadline = Date.now() + ms;
  let last: T | undefined;
  for (;;) {
    try {
      last = await probe();
      if (accept(last)) return last;
    } catch (error) {
      if (Date.now() > deadline) throw error;
    }
    if (Date.now() > deadline) throw new Error(`${what} not reached within ${ms} ms; last value ${JSON.stringify(last)}`);
    await new Promise((r) => setTimeout(r, 150));
  }
}

let counter = 0;
/** Login ids no other test (or earlier run) uses: lowercase letters and digits, ≤ 20 characters. */
export const uniqueId = (prefix = 'w') => `${prefix}${Date.now().toString(36).slice(-6)}${(counter++).toString(36)}${randomInt(1000)}`;
export const uniquePhone = () => `010${String(randomInt(0, 1e8)).padStart(8, '0')}`;

let adminToken: string | undefined;
/** The devstack's admin account (password printed once by the devstack on a fresh data directory). */
export async function asAdmin(): Promise<string> {
  if (adminToken) return adminToken;
  const res = await api<{ accessToken: string }>('POST', '/auth/login', { body: { id: 'admin', password: stack().adminPassword } });
  if (res.status !== 200) throw new Error(`admin login answered ${res.status} ${JSON.stringify(res.body)}`);
  adminToken = res.body.accessToken;
  return adminToken;
}

/** An operator changes one site setting (PUT /api/admin/settings/:key). */
export async function setSetting(key: string, value: string): Promise<void> {
  const res = await api('PUT', `/admin/settings/${key}`, { token: await asAdmin(), body: { value } });
  if (res.status !== 200 && res.status !== 204) throw new Error(`setting ${key} answered ${res.status} ${JSON.stringify(res.body)}`);
}

/**
 * Phone verification on or off, waiting until auth (which learns settings from catalog's events)
 * acts on it: a registration without a phone number is refused while it is on.
 */
export async function phoneVerification(on: boolean): Promise<void> {
  await setSetting('ENABLE_PHONE_NUMBER_VERIFICATION', String(on));
  await eventually(
    async () => {
      const id = uniqueId('probe');
      return (await api('POST', '/auth/register', { body: { id, password: 'probe-1234', email: `${id}@example.com`, registerWhere: '기타' } })).body?.code;
    },
    (code) => (on ? code === 'PHONE_NUMBER_INVALID' : code === undefined),
    20_000,
    `phone verification ${on ? 'on' : 'off'}`,
  );
}

/** The last code auth's development SMS outbox "sent" to the number (GET /dev/sms-outbox). */
export async function sentCode(phoneNumber: string): Promise<string> {
  const res = await fetch(`${stack().authUrl}/dev/sms-outbox?phoneNumber=${phoneNumber}`, { headers: callerHeaders({ to: 'auth' }) });
  const body = (await res.json()) as { messages: Array<{ code: string }> };
  const code = body.messages[0]?.code;
  if (code === undefined) throw new Error(`no code sent to ${phoneNumber}`);
  return code;
}

export type Member = { id: string; password: string; token: string; userId: string };

/** Registers a member through the API (phone verification off) and logs in. */
export async function newMember(): Promise<Member> {
  const id = uniqueId('m');
  const password = 'pass-1234';
  const register = () => api<{ userId: string }>('POST', '/auth/register', { body: { id, password, email: `${id}@example.com`, registerWhere: '기타' } });
  let reg = await register();
  // 503 is the product's "try again" (a service it could not reach in time, seen on a loaded CI
  // machine): asked again, as a member would, at most twice. A 409 then means the first went through.
  for (let tries = 0; reg.status === 503 && tries < 2; tries++) {
    await new Promise((r) => setTimeout(r, 1000));
    reg = await register();
  }
  const token = await login(id, password).catch(() => undefined);
  if (reg.status !== 201 && !(reg.status === 409 && token)) throw new Error(`register answered ${reg.status} ${JSON.stringify(reg.body)}`);
  const userId = reg.status === 201 ? reg.body.userId : (await api<{ userId: string }>('GET', '/auth/profile', { token })).body.userId;
  const member = { id, password, token: token ?? (await login(id, password)), userId };
  // wallet opens the account when it consumes the registration event
  await eventually(async () => (await fetch(`${stack().walletUrl}/accounts/${member.userId}`, { headers: callerHeaders({ to: 'wallet', userId: member.userId, role: 'member' }) })).status, (status) => status === 200, 20_000, 'wallet account');
  return member;
}

export async function login(id: string, password: string): Promise<string> {
  const res = await api<{ accessToken: string }>('POST', '/auth/login', { body: { id, password } });
  if (res.status !== 200) throw new Error(`login answered ${res.status} ${JSON.stringify(res.body)}`);
  return res.body.accessToken;
}

export const balanceDeci = async (token: string) => (await api<{ pointDeci: number }>('GET', '/auth/profile', { token })).body.pointDeci;

type TopUp = { id: number; userId: string; status: number; point: number };

/** The operator approves the member's pending top-ups (GET /api/admin/top-ups, POST …/:id/approve). */
export async function approvePendingTopUps(userId: string): Promise<number[]> {
  const admin = await asAdmin();
  const list = await api<{ items: TopUp[] }>('GET', '/admin/top-ups?status=0&pageSize=100', { token: admin });
  if (list.status !== 200) throw new Error(`top-up list answered ${list.status} ${JSON.stringify(list.body)}`);
  const mine = list.body.items.filter((t) => t.userId === userId);
  for (const topUp of mine) {
    const approved = await api('POST', `/admin/top-ups/${topUp.id}/approve`, { token: admin });
    if (approved.status !== 200) throw new Error(`approve answered ${approved.status} ${JSON.stringify(approved.body)}`);
  }
  return mine.map((t) => t.id);
}

/** Tops the member up through the API and approves it; waits until the balance shows it. */
export async function fund(member: Member, won: number): Promise<void> {
  const before = await balanceDeci(member.token);
  const asked = await api<{ id: number }>('POST', '/service/point', { token: member.token, body: { name: '홍길동', point: won, feeType: 'none', feeValue: null } });
  if (asked.status !== 201) throw new Error(`top-up answered ${asked.status} ${JSON.stringify(asked.body)}`);
  await approvePendingTopUps(member.userId);
  await eventually(() => balanceDeci(member.token), (deci) => deci === before + won * 10, 20_000, 'balance after approval');
}

/** A one-off or automatic order through the API. */
export async function placeOrder(member: Member, body: { serviceId: number; link: string; amount: number; runs?: number; interval?: number }) {
  const res = await api<{ order: { id: number } }>('POST', '/service/order', { token: member.token, body: { runs: 0, interval: 0, ...body } });
  if (res.status !== 201 && res.status !== 202) throw new Error(`order answered ${res.status} ${JSON.stringify(res.body)}`);
  return res.body.order;
}

type Service = { id: number; text: string; min: number; max: number; point: number; enableAuto: boolean; isReadOnly: boolean };

/** A seeded product by its Korean name (the devstack's catalogue, services/catalog/src/seed). */
export async function serviceNamed(text: string): Promise<Service> {
  const res = await api<Service[]>('GET', '/service/services');
  const found = res.body.find((s) => s.text === text);
  if (!found) throw new Error(`no service named ${text}`);
  return found;
}
