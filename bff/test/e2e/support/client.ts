import { randomInt } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { SASLOptions } from 'kafkajs';
import { inject } from 'vitest';
import { callerHeaders, eventually } from '@smm/testkit';

export const stack = () => inject('stack');

/**
 * The devstack's embedded Kafka wants SASL (a principal per service): the tests that read or replay
 * events log in as its admin, whose password the devstack keeps in DATA_DIR/kafka-users.json.
 */
export function devstackKafkaSasl(): SASLOptions {
  const file = JSON.parse(readFileSync(join(stack().dataDir, 'kafka-users.json'), 'utf8')) as { users: Record<string, { password: string }> };
  return { mechanism: 'plain', username: 'admin', password: file.users.admin!.password };
}

export type Answer<T = Record<string, unknown>> = { status: number; headers: Headers; body: T };

/** One call to the BFF's public API, as the web app makes it. */
export async function api<T = Record<string, unknown>>(method: string, path: string, options: { token?: string; body?: unknown; headers?: Record<string, string> } = {}): Promise<Answer<T>> {
  const headers: Record<string, string> = { ...options.headers };
  if (options.token !== undefined) headers.authorization = `Bearer ${options.token}`;
  if (options.body !== undefined) headers['content-type'] = 'application/json';
  const res = await fetch(`${stack().bffUrl}/api${path}`, { method, headers, body: options.body === undefined ? undefined : JSON.stringify(options.body) });
  const text = await res.text();
  return { status: res.status, headers: res.headers, body: (text === '' ? null : JSON.parse(text)) as T };
}

let counter = 0;
/** Ids and phone numbers no other test (or earlier run) uses. */
export const uniqueId = (prefix = 'm') => `${prefix}${Date.now().toString(36)}${(counter++).toString(36)}${randomInt(1000)}`;
export const uniquePhone = () => `010${String(randomInt(0, 1e8)).padStart(8, '0')}`;

let adminToken: string | undefined;
export async function asAdmin(): Promise<string> {
  if (adminToken) return adminToken;
  const res = await api<{ accessToken: string }>('POST', '/auth/login', { body: { id: 'admin', password: stack().adminPassword } });
  if (res.status !== 200) throw new Error(`admin login answered ${res.status} ${JSON.stringify(res.body)}`);
  adminToken = res.body.accessToken;
  return adminToken;
}

export async function setSettings(values: Record<string, string>): Promise<void> {
  const res = await api('PUT', '/admin/settings', { token: await asAdmin(), body: { values } });
  if (res.status !== 200) throw new Error(`settings change answered ${res.status} ${JSON.stringify(res.body)}`);
}

/**
 * Auth learns settings from catalog's SettingChanged events; a registration without a phone code
 * shows which way phone verification currently reads there.
 */
export async function phoneVerification(on: boolean): Promise<void> {
  await setSettings({ ENABLE_PHONE_NUMBER_VERIFICATION: String(on) });
  // Without a phone number: refused while verification is on, a new member while it is off.
  await eventually(
    async () => {
      const id = uniqueId('probe');
      return (await api('POST', '/auth/register', { body: { id, password: 'probe-1234', email: `${id}@example.com`, registerWhere: '기타' } })).body.code;
    },
    (code) => (on ? code === 'PHONE_NUMBER_INVALID' : code === undefined),
    20_000,
  );
}

/** Registers a plain member (phone verification off) and logs in. */
export async function newMember(): Promise<{ id: string; password: string; token: string; userId: string }> {
  const id = uniqueId();
  const password = 'pass-1234';
  const reg = await api<{ userId: string }>('POST', '/auth/register', { body: { id, password, email: `${id}@example.com`, registerWhere: '기타' } });
  if (reg.status !== 201) throw new Error(`register answered ${reg.status} ${JSON.stringify(reg.body)}`);
  const login = await api<{ accessToken: string }>('POST', '/auth/login', { body: { id, password } });
  if (login.status !== 200) throw new Error(`login answered ${login.status} ${JSON.stringify(login.body)}`);
  return { id, password, token: login.body.accessToken, userId: reg.body.userId };
}

/** The code auth's development SMS sender "sent" (SMS_DEV_OUTBOX=true in the devstack). */
export async function sentCode(phoneNumber: string): Promise<string> {
  const res = await fetch(`${stack().authUrl}/dev/sms-outbox?phoneNumber=${phoneNumber}`, { headers: callerHeaders({ to: 'auth' }) });
  const body = (await res.json()) as { messages: Array<{ code: string }> };
  const code = body.messages[0]?.code;
  if (code === undefined) throw new Error(`no code sent to ${phoneNumber}`);
  return code;
}
