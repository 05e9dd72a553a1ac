import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { brotliCompressSync, brotliDecompressSync, gzipSync } from 'node:zlib';
import { pino } from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mountWeb } from '../src/web-mount.ts';
import { type Harness, startHarness } from './support/harness.ts';
import { rawRequest } from './support/raw-request.ts';

const silent = pino({ level: 'silent' });
const dist = mkdtempSync(join(tmpdir(), 'web-dist-'));
const script = `export const screens = ${JSON.stringify(Array.from({ length: 400 }, (_, i) => `화면 ${i}`))};`;
// The twins web's build writes next to a hashed asset (vite.config.ts precompressAssets).
const styles = `.screen{color:#1a1d26}\n`.repeat(200);
const stylesBr = brotliCompressSync(styles);
const stylesGz = gzipSync(styles);
let built: Harness;
let unbuilt: Harness;

beforeAll(async () => {
  mkdirSync(join(dist, 'assets'));
  writeFileSync(join(dist, 'index.html'), '<!doctype html><html lang="ko"><title>그로우패널</title><script type="module" src="/assets/index-abc123.js"></script></html>');
  writeFileSync(join(dist, 'assets', 'index-abc123.js'), script);
  writeFileSync(join(dist, 'assets', 'screen-def456.css'), styles);
  writeFileSync(join(dist, 'assets', 'screen-def456.css.br'), stylesBr);
  writeFileSync(join(dist, 'assets', 'screen-def456.css.gz'), stylesGz);
  // The pages web's build writes per route (vite.config.ts routePages): index.html plus preloads.
  mkdirSync(join(dist, 'pages', 'terms'), { recursive: true });
  writeFileSync(join(dist, 'pages', 'index.html'), '<!doctype html><title>그로우패널</title><link rel="modulepreload" href="/assets/LandingPage.js">');
  writeFileSync(join(dist, 'pages', 'order.html'), '<!doctype html><title>그로우패널</title><link rel="modulepreload" href="/assets/OrderPage.js">');
  writeFileSync(join(dist, 'pages', 'terms', 'privacy.html'), '<!doctype html><title>그로우패널</title><link rel="modulepreload" href="/assets/PrivacyPage.js">');
  built = await startHarness({ web: mountWeb({ logger: silent, distDir: dist }) });
  unbuilt = await startHarness({ web: mountWeb({ logger: silent, distDir: join(dist, 'missing') }) });
});
afterAll(async () => {
  await Promise.all([built.stop(), unbuilt.stop()]);
  rmSync(dist, { recursive: true, force: true });
});

describe('the built web app', () => {
  it('serves hashed assets compressed and cached for a year', async () => {
    const res = await fetch(`${built.url}/assets/index-abc123.js`, { headers: { 'accept-encoding': 'gzip' } });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-encoding')).toBe('gzip');
    expect(res.headers.get('cache-control')).toContain('immutable');
    expect(await res.text()).toBe(script);
  });

  it("sends an asset's precompressed twin in the encoding the browser prefers, the file itself to one that accepts neither", async () => {
    const br = await rawRequest(`${built.url}/assets/screen-def456.css`, { acceptEncoding: 'gzip, deflate, br, zstd' });
    expect(br.headers['content-encoding']).toBe('br');
    expect(br.body.equals(stylesBr)).toBe(true);
    expect(brotliDecompressSync(br.body).toString()).toBe(styles);
    expect(br.headers['content-type']).toBe('text/css; charset=utf-8');
    expect(br.headers.vary).toContain('Accept-Encoding');
    expect(br.headers['cache-control']).toContain('immutable');

    const gz = await rawRequest(`${built.url}/assets/screen-def456.css`, { acceptEncoding: 'gzip' });
    expect(gz.headers['content-encoding']).toBe('gzip');
    expect(gz.body.equals(stylesGz)).toBe(true);

    const plain = await rawRequest(`${built.url}/assets/screen-def456.css`, { acceptEncoding: 'identity' });
    expect(plain.headers['content-encoding']).toBeUndefined();
    expect(plain.body.toString()).toBe(styles);

    // A twin is never served for a name outside the assets, nor reached by a path that climbs out.
    expect((await rawRequest(`${built.url}/assets/..%2Findex.html.br`, { acceptEncoding: 'br' })).status).toBe(404);
    expect((await rawRequest(`${built.url}/assets/screen-gone.css`, { acceptEncoding: 'br' })).status).toBe(404);
  });

  it('answers client routes with index.html, revalidated every time', async () => {
    for (const path of ['/', '/order', '/point', '/terms/privacy']) {
      const res = await fetch(`${built.url}${path}`, { headers: { accept: 'text/html' } });
      expect(res.status, path).toBe(200);
      expect(res.headers.get('cache-control')).toBe('no-cache');
      expect(await res.text()).toContain('<title>그로우패널</title>');
    }
  });

  it("answers a route with the page the build wrote for it (its screen's preloads), any other with index.html", async () => {
    const page = async (path: string) => (await fetch(`${built.url}${path}`, { headers: { accept: 'text/html' } })).text();
    expect(await page('/')).toContain('/assets/LandingPage.js');
    expect(await page('/order')).toContain('/assets/OrderPage.js');
    expect(await page('/order/')).toContain('/assets/OrderPage.js');
    expect(await page('/terms/privacy')).toContain('/assets/PrivacyPage.js');
    // No page of its own (or not a route name): index.html, nothing resolved outside the pages.
    for (const path of ['/point', '/admin/orders', '/Order', '/order.html', '/terms%2Fprivacy']) {
      const html = await page(path);
      expect(html, path).toContain('/assets/index-abc123.js');
      expect(html, path).not.toContain('modulepreload');
    }
  });

  it('keeps a missing asset a 404 rather than the page', async () => {
    const res = await fetch(`${built.url}/assets/index-gone.js`);
    expect(res.status).toBe(404);
  });

  it('explains in Korean how to build when there is no build', async () => {
    const res = await fetch(`${unbuilt.url}/order`, { headers: { accept: 'text/html' } });
    expect(res.status).toBe(503);
    expect(await res.text()).toContain('npm run build -w @smm/web');
  });
});

/** One GET without any decoding by the client: the bytes as sent. */
