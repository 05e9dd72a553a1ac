import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Harness, startHarness } from './support/harness.ts';

let h: Harness;
beforeAll(async () => {
  // Stands in for the built web app: any path it is asked for answers the app's page.
  h = await startHarness({ web: (app) => app.use((_req, res) => void res.type('html').send('<!doctype html><title>web app</title>')) });
});
afterAll(() => h.stop());

const get = (path: string, accept: string) => fetch(`${h.url}${path}`, { headers: { accept } });

describe('the web app beside the API', () => {
  it('gives a browser opening /api (the API documentation screen) the web app', async () => {
    const res = await get('/api', 'text/html,application/xhtml+xml,*/*;q=0.8');
    expect(res.status).toBe(200);
    expect(await res.text()).toContain('<title>web app</title>');
  });

  it('keeps JSON 404s for API clients and for every unknown path below /api', async () => {
    for (const [path, accept] of [['/api', 'application/json'], ['/api', '*/*'], ['/api/nope', 'text/html'], ['/api/', 'text/html']] as const) {
      const res = await get(path, accept);
      expect(res.status, `${path} with ${accept}`).toBe(404);
      expect(await res.json()).toMatchObject({ code: 'ROUTE_NOT_FOUND' });
    }
  });

  it('serves client routes such as /order from the web app', async () => {
    const res = await get('/order', 'text/html');
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toContain('text/html');
  });
});
