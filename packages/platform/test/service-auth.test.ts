import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { callerHeaders, forgedCallerHeaders, testServiceSecret } from '@smm/testkit';
import { type RunningServer, ServiceCredentialSigner, createHttpApp, createLogger, listen, serviceAuthHeaders, signServiceCredential } from '../src/index.ts';

const app = createHttpApp({
  logger: createLogger({ service: 'wallet', level: 'silent' }),
  serviceAuth: { secret: testServiceSecret, audience: 'wallet' },
  routes: (r) => {
    r.get('/whoami', (req, res) => {
      res.json(req.caller);
    });
    r.post('/admin/top-ups/:id/approve', (req, res) => {
      res.json({ approvedBy: req.caller.userId, body: req.body as unknown });
    });
  },
});

let server: RunningServer;
let base: string;
beforeAll(async () => {
  server = await listen(app, 0);
  base = `http://127.0.0.1:${server.port}`;
});
afterAll(() => server.close());

describe('service credentials', () => {
  it('lets probes through without a credential', async () => {
    expect((await fetch(`${base}/healthz`)).status).toBe(200);
    expect((await fetch(`${base}/readyz`)).status).toBe(200);
  });

  it('sets req.caller from a credential signed by signServiceCredential', async () => {
    const res = await fetch(`${base}/whoami`, { headers: serviceAuthHeaders(testServiceSecret, { from: 'bff', to: 'wallet', userId: 'member-7', role: 'member' }) });
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ service: 'bff', userId: 'member-7', role: 'member' });
    const own = await fetch(`${base}/whoami`, { headers: serviceAuthHeaders(testServiceSecret, { from: 'scheduler', to: 'wallet', role: 'service' }) });
    expect(await own.json()).toEqual({ service: 'scheduler', userId: null, role: 'service' });
  });

  it("accepts testkit's credentials, so the tests' signer and the platform's agree", async () => {
    const res = await fetch(`${base}/whoami`, { headers: callerHeaders({ to: 'wallet', userId: 'admin-1', role: 'admin' }) });
    expect(await res.json()).toEqual({ service: 'bff', userId: 'admin-1', role: 'admin' });
  });

  it('refuses the wallet attack: x-user-role admin, expired, wrongly signed, unsigned, no exp, other audience', async () => {
    for (const [name, headers] of Object.entries(forgedCallerHeaders('wallet'))) {
      const res = await fetch(`${base}/admin/top-ups/1/approve`, { method: 'POST', headers: { ...headers, 'content-type': 'application/json' }, body: '{}' });
      expect({ name, status: res.status, body: await res.json() }).toMatchObject({ name, status: 401, body: { code: 'SERVICE_CREDENTIAL_INVALID' } });
    }
    const none = await fetch(`${base}/no-such-route`);
    expect(none.status).toBe(401);
  });

  it('refuses a role the platform does not know and a secret too short to sign with', async () => {
    const res = await fetch(`${base}/whoami`, { headers: callerHeaders({ to: 'wallet', userId: 'x', role: 'root' as 'admin' }) });
    expect(res.status).toBe(401);
    expect(() => signServiceCredential('short', { from: 'bff', to: 'wallet' })).toThrow(/32 characters/);
  });
});

describe('reused credentials', () => {
  it('a signer presents the same token for the same claims, a new one for other claims, and the service accepts it on every call', async () => {
    const signer = new ServiceCredentialSigner(testServiceSecret);
    const first = signer.sign({ from: 'bff', to: 'wallet', userId: 'member-7', role: 'member' });
    expect(signer.sign({ from: 'bff', to: 'wallet', userId: 'member-7', role: 'member' })).toBe(first);
    const other = signer.sign({ from: 'bff', to: 'wallet', userId: 'member-8', role: 'member' });
    expect(other).not.toBe(first);
    for (const [token, userId] of [[first, 'member-7'], [first, 'member-7'], [other, 'member-8']] as const) {
      const res = await fetch(`${base}/whoami`, { headers: { authorization: `Bearer ${token}` } });
      expect(await res.json()).toEqual({ service: 'bff', userId, role: 'member' });
    }
  });

  it('a token verified before does not make a tampered copy or another audience acceptable', async () => {
    const token = new ServiceCredentialSigner(testServiceSecret).sign({ from: 'bff', to: 'wallet', userId: 'member-7', role: 'member' });
    expect((await fetch(`${base}/whoami`, { headers: { authorization: `Bearer ${token}` } })).status).toBe(200);
    const [head, payload, signature] = token.split('.') as [string, string, string];
    const claims = JSON.parse(Buffer.from(payload, 'base64url').toString()) as Record<string, unknown>;
    const forged = `${head}.${Buffer.from(JSON.stringify({ ...claims, role: 'admin' })).toString('base64url')}.${signature}`;
    expect((await fetch(`${base}/whoami`, { headers: { authorization: `Bearer ${forged}` } })).status).toBe(401);
    const forOrder = new ServiceCredentialSigner(testServiceSecret).sign({ from: 'bff', to: 'order', userId: 'member-7', role: 'member' });
    expect((await fetch(`${base}/whoami`, { headers: { authorization: `Bearer ${forOrder}` } })).status).toBe(401);
    expect(() => new ServiceCredentialSigner('short')).toThrow(/32 characters/);
  });
});
