import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pino } from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mountWeb } from '../src/web-mount.ts';
import { type Harness, startHarness } from './support/harness.ts';

const silent = pino({ level: 'silent' });
const dist = mkdtempSync(join(tmpdir(), 'web-dist-'));
const script = `export const screens = ${JSON.stringify(Array.from({ length: 400 }, (_, i) => `화면 ${i}`))};`;
let built: Harness;
let unbuilt: Harness;

beforeAll(async () => {
  mkdirSync(join(dist, 'assets'));
  writeFileSync(join(dist, 'index.html'), '<!doctype html><html lang="ko"><title>그로우패널</title><script type="module" src="/assets/index-abc123.js"></script></html>');
  writeFileSync(join(dist, 'assets', 'index-abc123.js'), script);
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

  it('answers client routes with index.html, revalidated every time', async () => {
    for (const path of ['/', '/order', '/point', '/terms/privacy']) {
      const res = await fetch(`${built.url}${path}`, { headers: { accept: 'text/html' } });
      expect(res.status, path).toBe(200);
      expect(res.headers.get('cache-control')).toBe('no-cache');
      expect(await res.text()).toContain('<title>그로우패널</title>');
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
