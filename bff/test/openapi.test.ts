import express from 'express';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { v2Actions, v2Requests } from '@smm/contracts';
import { fulfillmentRoutes } from '../src/http/fulfillment-routes.ts';
import { resellerRoutes } from '../src/http/reseller-routes.ts';
import type { TokenVerifier } from '../src/security/token-verifier.ts';
import type { ServiceClient } from '../src/upstream/service-client.ts';
import type { Reseller } from '../src/reseller/reseller.ts';
import { type Harness, call, startHarness } from './support/harness.ts';
import { orderViewBody } from './support/service-bodies.ts';

type Doc = { openapi: string; info: { title: string; version: string }; paths: Record<string, Record<string, Operation>>; components: { schemas: Record<string, unknown>; securitySchemes: Record<string, unknown> } };
type Operation = { operationId: string; parameters?: Array<{ name: string; in: string; required?: boolean }>; responses: Record<string, unknown>; requestBody?: { content: Record<string, { examples?: Record<string, { value: Record<string, string> }> }> } };

let h: Harness;
let doc: Doc;
beforeAll(async () => {
  h = await startHarness({ reseller: { ratePerMinute: 50, apiKeyCacheSeconds: 60, catalogueCacheMs: 0, orderWaitMs: 500 } });
  const res = await fetch(`${h.url}/api/openapi.json`);
  expect(res.status).toBe(200);
  expect(res.headers.get('content-type')).toMatch(/^application\/json/);
  expect(res.headers.get('cache-control')).toMatch(/^public, max-age=\d+/);
  doc = (await res.json()) as Doc;
});
afterAll(() => h.stop());
beforeEach(async () => {
  for (const fake of [h.auth, h.catalog, h.wallet, h.order, h.fulfillment]) fake.reset();
  await h.redis.flushall();
});

/** Every `$ref` in the document, each a JSON pointer into it. */
function refs(node: unknown, found: string[] = []): string[] {
  if (Array.isArray(node)) for (const item of node) refs(item, found);
  else if (typeof node === 'object' && node !== null) {
    for (const [k, v] of Object.entries(node)) {
      if (k === '$ref' && typeof v === 'string') found.push(v);
      else refs(v, found);
    }
  }
  return found;
}
const resolve = (pointer: string): unknown =>
  pointer
    .replace(/^#\//, '')
    .split('/')
    .reduce<unknown>((at, part) => (typeof at === 'object' && at !== null ? (at as Record<string, unknown>)[part.replace(/~1/g, '/').replace(/~0/g, '~')] : undefined), doc);

describe('GET /api/openapi.json', () => {
  it('is an OpenAPI 3.1 document: required fields, resolvable refs, unique operation ids, declared path parameters', () => {
    expect(doc.openapi).toMatch(/^3\.1\.\d+$/);
    expect(doc.info.title).toEqual(expect.any(String));
    expect(doc.info.version).toEqual(expect.any(String));
    const ids: string[] = [];
    for (const [path, item] of Object.entries(doc.paths)) {
      expect(path.startsWith('/')).toBe(true);
      for (const [method, op] of Object.entries(item)) {
        expect(['get', 'post', 'put', 'patch', 'delete']).toContain(method);
        expect(Object.keys(op.responses).length).toBeGreaterThan(0);
        for (const status of Object.keys(op.responses)) expect(status).toMatch(/^[1-5]\d\d$/);
        ids.push(op.operationId);
        const templated = [...path.matchAll(/\{(\w+)\}/g)].map((m) => m[1]);
        for (const name of templated) expect(op.parameters?.find((p) => p.in === 'path' && p.name === name)?.required).toBe(true);
      }
    }
    expect(new Set(ids).size).toBe(ids.length);
    const all = refs(doc);
    expect(all.length).toBeGreaterThan(0);
    for (const ref of all) expect(resolve(ref), ref).toBeDefined();
    expect(doc.components.securitySchemes.apiKey).toEqual({ type: 'apiKey', in: 'header', name: 'api-key' });
  });

  it('documents every /api route behind the api-key guard', () => {
    const router = express.Router();
    // The route files that use apiKeyAccess; registering runs no handler.
    resellerRoutes(router, {} as Reseller);
    fulfillmentRoutes(router, {} as TokenVerifier, {} as ServiceClient, {} as Reseller);
    const routes = router.stack.flatMap((layer) => {
      const route = layer.route as { path: string; methods: Record<string, boolean>; stack: Array<{ handle: { name: string } }> } | undefined;
      if (!route?.stack.some((l) => l.handle.name === 'apiKeyGuard')) return [];
      return Object.keys(route.methods).map((m) => `${m} /api${route.path.replace(/:(\w+)/g, '{$1}')}`);
    });
    expect(routes.length).toBe(6);
    for (const route of routes) {
      const [method, path] = route.split(' ') as [string, string];
      expect(doc.paths[path]?.[method], route).toBeDefined();
    }
  });

  it('documents every v2 action the BFF answers, and the BFF refuses any other', async () => {
    const post = doc.paths['/api/v2']!.post!;
    const examples = post.requestBody!.content['application/x-www-form-urlencoded']!.examples!;
    for (const action of v2Actions) {
      expect(doc.components.schemas[`v2_${action}`], action).toBeDefined();
      expect(doc.components.schemas[`v2_${action}_answer`], action).toBeDefined();
      expect(examples[action]!.value.action).toBe(action);
      expect(v2Requests[action].safeParse(examples[action]!.value).success, action).toBe(true);
    }
    h.auth.on('POST /api-keys/resolve', { body: { userId: 'user-a', loginId: 'login-a', role: 'member' } });
    const refused = await fetch(`${h.url}/api/v2`, { method: 'POST', body: new URLSearchParams({ key: 'k', action: 'undocumented' }) });
    expect(refused.status).toBe(400);
    expect(await refused.json()).toEqual({ error: 'Incorrect request' });
  });

  it("the document's `add` example, sent as it stands with a real key, places the order", async () => {
    h.auth.on('POST /api-keys/resolve', (req) => ((req.body as { apiKey: string }).apiKey === 'key-a' ? { body: { userId: 'user-a', loginId: 'login-a', role: 'member' } } : { status: 404, body: { code: 'API_KEY_INVALID', message: 'x' } }));
    h.order.on('POST /orders', { status: 201, body: { outcome: 'accepted', order: orderViewBody({ id: 41, status: 0 }) } });
    const example = doc.paths['/api/v2']!.post!.requestBody!.content['application/x-www-form-urlencoded']!.examples!.add!.value;
    const res = await fetch(`${h.url}/api/v2`, { method: 'POST', body: new URLSearchParams({ ...example, key: 'key-a' }) });
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ order: 41 });
    const sent = h.order.calls('POST /orders')[0]!;
    expect(sent.caller?.userId).toBe('user-a');
    // `request`: the placement id the BFF gives a placement without an Idempotency-Key (issue 39 §7).
    expect(sent.body).toEqual({ serviceId: Number(example.service), link: example.link, amount: Number(example.quantity), source: 'api', request: { key: expect.stringMatching(/^bff-placement /), hash: 'placement-id' } });
    // The same example as JSON, the other content type the document lists.
    const asJson = await call(h.url, 'POST', '/api/v2', { body: { ...example, key: 'key-a' } });
    expect(asJson.body).toEqual({ order: 41 });
  });
});
