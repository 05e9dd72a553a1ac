import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Harness, call, startHarness } from './support/harness.ts';

let h: Harness;
beforeAll(async () => {
  // Its own harness (and Redis): the address's count of wrong keys would spill into other files' tests.
  h = await startHarness({ trustProxy: 1 });
  h.auth.on('POST /api-keys/resolve', (req) =>
    (req.body as { apiKey: string }).apiKey === 'good-key' ? { body: { userId: 'user-a', loginId: 'login-a', role: 'member' } } : { status: 404, body: { code: 'API_KEY_INVALID', message: 'x' } },
  );
  h.catalog.on('GET /services', { body: [] });
  h.catalog.on('GET /categories', { body: [] });
  h.catalog.on('GET /platforms', { body: [] });
});
afterAll(() => h.stop());

const from = (address: string, apiKey: string) => call(h.url, 'GET', '/api/services', { headers: { 'api-key': apiKey, 'x-forwarded-for': address } });

describe('guessing API keys', () => {
  it('is limited per address: after 30 wrong keys in a minute the address gets 429, others are unaffected', async () => {
    // The limit counts per clock minute: start well inside one, so the 40 tries do not straddle two.
    const intoMinute = Date.now() % 60_000;
    if (intoMinute > 50_000) await new Promise((r) => setTimeout(r, 60_000 - intoMinute + 100));
    // Fresh addresses on every try (CI retries a failed test within the same minute).
    const address = () => `10.${[...randomBytes(3)].join('.')}`;
    const [guesser, other] = [address(), address()];
    const statuses: number[] = [];
    for (let i = 0; i < 40; i++) statuses.push((await from(guesser, randomBytes(16).toString('hex'))).status);
    expect(statuses.slice(0, 30).every((s) => s === 401)).toBe(true);
    expect(statuses.slice(30).every((s) => s === 429)).toBe(true);
    const asked = h.auth.calls('POST /api-keys/resolve').length;
    // Refused before asking auth, even with the right key.
    expect((await from(guesser, 'good-key')).status).toBe(429);
    expect(h.auth.calls('POST /api-keys/resolve').length).toBe(asked);
    expect((await from(other, 'good-key')).status).not.toBe(429);
    expect((await from(other, 'wrong')).status).toBe(401);
    // With TRUST_PROXY the address auth sees is the forwarded one.
    expect(h.auth.calls('POST /api-keys/resolve').at(-1)!.headers['x-client-ip']).toBe(other);
  }, 90_000);
});
