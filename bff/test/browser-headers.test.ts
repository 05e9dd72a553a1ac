import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { type Harness, startHarness } from './support/harness.ts';

let h: Harness;
let kakao = 'false';
let version = 1;
beforeAll(async () => {
  // Behind one proxy, as in production: X-Forwarded-Proto says whether the browser used TLS.
  h = await startHarness({ trustProxy: 1, web: (app) => app.use((_req, res) => void res.type('html').send('<!doctype html><title>web app</title>')) });
});
afterAll(() => h.stop());
beforeEach(async () => {
  await h.redis.flushall();
  h.catalog.reset();
  h.catalog.on('GET /settings', () => ({ body: { version, etag: `"s-${version}"`, items: [{ key: 'ENABLE_KAKAO_LOGIN', value: kakao }], flags: {} } }));
});

const page = (headers: Record<string, string> = {}) => fetch(`${h.url}/order`, { headers: { accept: 'text/html', ...headers } });
const directives = (res: Response) => Object.fromEntries(res.headers.get('content-security-policy')!.split(';').map((d) => d.trim().split(/\s+/)).map(([name, ...values]) => [name!, values]));

describe('browser security headers', () => {
  it('sends a strict policy with the app page and with API answers', async () => {
    kakao = 'false';
    version++;
    for (const res of [await page(), await fetch(`${h.url}/api/service/settings`)]) {
      const csp = directives(res);
      expect(csp['default-src']).toEqual(["'self'"]);
      expect(csp['script-src']).not.toContain("'unsafe-inline'");
      expect(csp['script-src']!.every((s) => s === "'self'")).toBe(true);
      expect(csp['frame-ancestors']).toEqual(["'none'"]);
      expect(csp['object-src']).toEqual(["'none'"]);
      expect(res.headers.get('x-content-type-options')).toBe('nosniff');
      expect(res.headers.get('referrer-policy')).toBe('no-referrer');
      expect(res.headers.get('x-frame-options')).toBe('DENY');
    }
  });

  it('allows the Kakao SDK origin, and only it, while Kakao login is enabled', async () => {
    kakao = 'true';
    version++;
    const csp = directives(await page());
    expect(csp['script-src']).toEqual(["'self'", 'https://developers.kakao.com']);
    expect(csp['connect-src']).toEqual(["'self'"]);
  });

  it('sends HSTS only when the request came over TLS', async () => {
    expect((await page()).headers.get('strict-transport-security')).toBeNull();
    expect((await page({ 'x-forwarded-proto': 'https' })).headers.get('strict-transport-security')).toMatch(/max-age=31536000/);
  });
});
