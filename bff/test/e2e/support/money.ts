import type { ServiceType } from '@smm/contracts';
import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { callerHeaders, eventually } from '@smm/testkit';
import { type Answer, api, asAdmin, newMember, stack, uniqueId } from './client.ts';

const root = fileURLToPath(new URL('../../../../', import.meta.url));

export type Member = Awaited<ReturnType<typeof newMember>>;
type Json = Record<string, unknown>;

/** Whether the order service runs in the devstack yet (tests of it are skipped until it does). */
export const orderServiceUp = () => stack().orderUrl !== null;
export const schedulerUp = () => stack().schedulerUrl !== null;

export async function pointDeciOf(member: Member): Promise<number> {
  const res = await api<{ pointDeci: number }>('GET', '/auth/profile', { token: member.token });
  if (res.status !== 200) throw new Error(`profile answered ${res.status} ${JSON.stringify(res.body)}`);
  return res.body.pointDeci;
}

/** Waits until the member's balance reads `deci`. */
export const balanceBecomes = (member: Member, deci: number, ms = 20_000) => eventually(() => pointDeciOf(member), (v) => v === deci, ms);

/** A top-up request as the web app sends it, answered by wallet through the BFF. */
export const requestTopUp = (member: Member, body: Json) => api<Json>('POST', '/service/point', { token: member.token, body });

/** Top up `won` (multiples of 5,000, any size: split into requests of at most 10,000,000) and approve. */
export async function fund(member: Member, won: number): Promise<void> {
  const before = await pointDeciOf(member);
  let left = won;
  while (left > 0) {
    const point = Math.min(left, 10_000_000);
    const asked = await requestTopUp(member, { name: `입금 ${uniqueId('n')}`, point, feeType: 'none', feeValue: null });
    if (asked.status !== 201) throw new Error(`top-up answered ${asked.status} ${JSON.stringify(asked.body)}`);
    const approved = await api('POST', `/admin/top-ups/${String(asked.body.id)}/approve`, { token: await asAdmin() });
    if (approved.status !== 200) throw new Error(`approve answered ${approved.status} ${JSON.stringify(approved.body)}`);
    left -= point;
  }
  await balanceBecomes(member, before + won * 10);
}

/** A member with an open wallet account (and, when asked, a balance). */
export async function member(won = 0): Promise<Member> {
  const m = await newMember();
  // wallet opens the account when it consumes UserRegistered
  await eventually(async () => (await fetch(`${stack().walletUrl}/accounts/${m.userId}`, { headers: callerHeaders({ to: 'wallet', userId: m.userId, role: 'member' }) })).status, (status) => status === 200, 20_000);
  if (won > 0) await fund(m, won);
  return m;
}

let categoryId: number | undefined;
async function category(): Promise<number> {
  if (categoryId !== undefined) return categoryId;
  const admin = await asAdmin();
  const made = await api<{ id: number }>('POST', '/admin/categories', { token: admin, body: { text: `e2e ${uniqueId('c')}`, platformId: 1 } });
  if (made.status !== 201) throw new Error(`category answered ${made.status} ${JSON.stringify(made.body)}`);
  categoryId = made.body.id;
  return categoryId;
}

export type ProductSpec = { min?: number; max?: number; point?: number; enableAuto?: boolean; isReadOnly?: boolean; type?: ServiceType };

/**
 * A product of the test's own (so prices and limits are known), once the order service's replica
 * has it: an amount of 0 is then refused as below the minimum rather than as an unknown service.
 */
export async function product(spec: ProductSpec = {}, probe?: Member): Promise<{ id: number; text: string; min: number; max: number; unitPriceDeci: number }> {
  const admin = await asAdmin();
  const body = { text: `e2e 상품 ${uniqueId('p')}`, categoryId: await category(), min: spec.min ?? 10, max: spec.max ?? 10_000, point: spec.point ?? 2.5, enableAuto: spec.enableAuto ?? true, isReadOnly: spec.isReadOnly ?? false, notice: '', ...(spec.type ? { type: spec.type } : {}) };
  const made = await api<{ id: number; unitPriceDeci: number }>('POST', '/admin/services', { token: admin, body });
  if (made.status !== 201) throw new Error(`service answered ${made.status} ${JSON.stringify(made.body)}`);
  if (probe && !body.isReadOnly) {
    await eventually(
      // A typed product is probed with an empty link (a package would otherwise be ordered): LINK_REQUIRED also says the replica knows it.
      async () => (await api('POST', '/service/order', { token: probe.token, body: { serviceId: made.body.id, link: spec.type ? '' : 'probe', amount: 0 } })).body.code,
      // A subscription takes a profile username instead of a link (issue 40).
      (code) => code === (spec.type === 'subscriptions' ? 'USERNAME_REQUIRED' : spec.type ? 'LINK_REQUIRED' : 'AMOUNT_BELOW_MIN'),
      20_000,
    );
  }
  return { id: made.body.id, text: body.text, min: body.min, max: body.max, unitPriceDeci: made.body.unitPriceDeci };
}

export const order = (m: Member, body: Json) => api<Json>('POST', '/service/order', { token: m.token, body });

/** The member's API key, fresh from a rotation (the full key is shown only then). */
export async function apiKeyOf(m: Member): Promise<string> {
  const res = await api<{ apiKey: string }>('POST', '/auth/api-key', { token: m.token });
  if (res.status !== 201) throw new Error(`api-key answered ${res.status}`);
  return res.body.apiKey;
}

/** A call to the public reseller API with the key in the `api-key` header. */
export async function keyed<T = Json>(method: string, path: string, key: string | undefined, options: { body?: unknown; headers?: Record<string, string> } = {}): Promise<Answer<T>> {
  const headers: Record<string, string> = { ...options.headers };
  if (key !== undefined) headers['api-key'] = key;
  if (options.body !== undefined) headers['content-type'] = 'application/json';
  const res = await fetch(`${stack().bffUrl}/api${path}`, { method, headers, body: options.body === undefined ? undefined : JSON.stringify(options.body) });
  const text = await res.text();
  return { status: res.status, headers: res.headers, body: JSON.parse(text) as T };
}

/**
 * Waits until the reseller API lists the product to the key's holder. The list is cached for up to
 * a second, so a panel importing this one's services right after a product is made can miss it.
 */
export async function listedToResellers(key: string, serviceId: number): Promise<void> {
  await eventually(() => v2<Array<{ service: number }>>({ key, action: 'services' }), (r) => r.status === 200 && r.body.some((s) => s.service === serviceId), 10_000);
}

/** API v2, form-encoded (as most reseller tools send it) or JSON. */
export async function v2<T = Json>(fields: Record<string, string>, as: 'form' | 'json' = 'form'): Promise<Answer<T>> {
  const body = as === 'form' ? new URLSearchParams(fields).toString() : JSON.stringify(fields);
  const res = await fetch(`${stack().bffUrl}/api/v2`, { method: 'POST', headers: { 'content-type': as === 'form' ? 'application/x-www-form-urlencoded' : 'application/json' }, body });
  return { status: res.status, headers: res.headers, body: (await res.json()) as T };
}

/** wallet's ledger check (`npm run ledger:check -w @smm/wallet`) against the devstack's wallet database. */
export function ledgerCheck(): Promise<{ code: number | null; output: string }> {
  const url = new URL(stack().mongoUrl);
  url.pathname = '/wallet';
  return new Promise((resolve) => {
    const child = spawn('npm', ['run', '--silent', 'ledger:check', '-w', '@smm/wallet'], { cwd: root, env: { ...process.env, MONGO_URL: url.toString() }, stdio: ['ignore', 'pipe', 'pipe'] });
    let output = '';
    child.stdout.on('data', (c: Buffer) => (output += c.toString()));
    child.stderr.on('data', (c: Buffer) => (output += c.toString()));
    child.once('exit', (code) => resolve({ code, output }));
  });
}

export const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
