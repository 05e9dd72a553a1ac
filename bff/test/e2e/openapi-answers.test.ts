import { Ajv2020 } from 'ajv/dist/2020.js';
import { beforeAll, describe, expect, it } from 'vitest';
import { eventually } from '@smm/testkit';
import { v2Actions, type V2Action } from '@smm/contracts';
import { stack } from './support/client.ts';
import { type Member, apiKeyOf, keyed, member, orderServiceUp, product, v2 } from './support/money.ts';

/**
 * GET /api/openapi.json checked against the real product: every answer the reseller API gives here
 * (success and error, v2 and JSON) has its status documented, and its body is valid against the
 * document's own JSON Schema for that status. A field added to an answer without the contract, a
 * status the document does not list, or a document that no answer can satisfy fails this.
 */
type Doc = { paths: Record<string, Record<string, { responses: Record<string, { content?: Record<string, { schema: unknown }> }> }>> };

const pointer = (...parts: string[]) => parts.map((p) => p.replace(/~/g, '~0').replace(/\//g, '~1')).join('/');

describe.runIf(orderServiceUp())('the OpenAPI document describes the real answers', () => {
  let doc: Doc;
  let ajv: Ajv2020;
  let m: Member;
  let key: string;
  let productId: number;

  beforeAll(async () => {
    const res = await fetch(`${stack().bffUrl}/api/openapi.json`);
    expect(res.status).toBe(200);
    doc = (await res.json()) as Doc;
    // The whole document is the schema store: answers are checked through the same $refs a client
    // generator would follow. OpenAPI's own keywords (discriminator, example) are not JSON Schema.
    ajv = new Ajv2020({ strict: false, allErrors: true });
    ajv.addSchema(doc, 'openapi');
    m = await member(10_000);
    key = await apiKeyOf(m);
    productId = (await product({ min: 10, max: 20_000, point: 2.5, enableAuto: true }, m)).id;
    await eventually(() => keyed<Array<{ id: number }>>('GET', '/services', key), (r) => r.body.some((s) => s.id === productId), 5000);
  });

  /** The body must be valid against the document's schema for (path, method, status). */
  function conforms(path: string, method: string, status: number, body: unknown, schemaRef?: string): void {
    const responses = doc.paths[path]?.[method]?.responses;
    expect(responses, `${method} ${path} is documented`).toBeDefined();
    expect(Object.keys(responses!), `${method} ${path} documents status ${status}`).toContain(String(status));
    expect(responses![String(status)]!.content?.['application/json'], `${method} ${path} ${status} has a JSON body`).toBeDefined();
    const ref = `openapi#/${pointer('paths', path, method, 'responses', String(status), 'content', 'application/json', 'schema')}`;
    for (const target of [ref, ...(schemaRef === undefined ? [] : [`openapi#/components/schemas/${schemaRef}`])]) {
      // getSchema compiles a pointer into the added document once and keeps it.
      const validate = ajv.getSchema(target);
      expect(validate, `${target} resolves`).toBeDefined();
      expect(validate!(body), `${method} ${path} ${status} against ${target}: ${ajv.errorsText(validate!.errors)}\n${JSON.stringify(body)}`).toBe(true);
    }
  }

  const exercised = new Set<V2Action>();
  async function v2Answer(action: V2Action, fields: Record<string, string>, as: 'form' | 'json' = 'form') {
    exercised.add(action);
    const answer = await v2({ key, action, ...fields }, as);
    conforms('/api/v2', 'post', answer.status, answer.body, answer.status === 200 ? `v2_${action}_answer` : 'v2_error');
    return answer;
  }

  it('v2: every action, as the panel-standard clients send it, answers as documented', async () => {
    const services = await v2Answer('services', {});
    expect(services.status).toBe(200);
    const placed = await v2Answer('add', { service: String(productId), link: 'https://x.example/openapi', quantity: '10' });
    expect(placed.status).toBe(200);
    const order = String((placed.body as { order: number }).order);
    const second = await v2Answer('add', { service: String(productId), link: 'https://x.example/openapi-2', quantity: '10' }, 'json');
    const other = String((second.body as { order: number }).order);
    expect((await v2Answer('status', { order })).status).toBe(200);
    expect((await v2Answer('status', { orders: `${order},${other},999999999` })).status).toBe(200);
    expect((await v2Answer('balance', {})).status).toBe(200);
    // Refill of an order that is not complete, one and many, and the status of an unknown refill:
    // whatever the product answers must be what the document says it answers.
    await v2Answer('refill', { order });
    await v2Answer('refill', { orders: `${order},${other}` });
    await v2Answer('refill_status', { refill: '999999999' });
    await v2Answer('refill_status', { refills: '999999998,999999999' });
    expect((await v2Answer('cancel', { orders: `${other},999999999` })).status).toBe(200);
    // A new action in the contract fails here until this test sends it.
    expect([...exercised].sort()).toEqual([...v2Actions].sort());
  });

  it('v2: errors (bad key, unknown action, missing field, too little money) answer as documented', async () => {
    const badKey = await v2({ key: 'smm_not-a-key', action: 'balance' });
    expect(badKey.status).toBeGreaterThanOrEqual(400);
    conforms('/api/v2', 'post', badKey.status, badKey.body, 'v2_error');
    const unknown = await v2({ key, action: 'teleport' });
    conforms('/api/v2', 'post', unknown.status, unknown.body, 'v2_error');
    const missing = await v2Answer('add', { service: String(productId), quantity: '10' });
    expect(missing.status).toBeGreaterThanOrEqual(400);
    const poorKey = await apiKeyOf(await member());
    const poor = await v2({ key: poorKey, action: 'add', service: String(productId), link: 'https://x.example/poor', quantity: '10' });
    conforms('/api/v2', 'post', poor.status, poor.body, 'v2_error');
    expect(poor.body).toEqual({ error: 'Not enough funds on balance' });
  });

  it('JSON /api routes: success and error answers as documented', async () => {
    const services = await keyed('GET', '/services', key);
    conforms('/api/services', 'get', services.status, services.body);
    const placed = await keyed<{ wId: number }>('POST', '/order', key, { body: { serviceId: productId, link: 'https://x.example/openapi-json', amount: 10 } });
    expect(placed.status).toBe(201);
    conforms('/api/order', 'post', placed.status, placed.body);
    const wId = placed.body.wId;
    const status = await keyed('GET', `/status/${wId}`, key);
    conforms('/api/status/{wId}', 'get', status.status, status.body);
    const refill = await keyed('POST', `/refill/${wId}`, key);
    conforms('/api/refill/{wId}', 'post', refill.status, refill.body);
    const refillRead = await keyed('GET', '/refill/999999999', key);
    conforms('/api/refill/{id}', 'get', refillRead.status, refillRead.body);
    const cancel = await keyed('POST', `/cancel/${wId}`, key);
    conforms('/api/cancel/{wId}', 'post', cancel.status, cancel.body);
    const unknown = await keyed('GET', '/status/999999999', key);
    expect(unknown.status).toBe(404);
    conforms('/api/status/{wId}', 'get', unknown.status, unknown.body);
    const noKey = await keyed('GET', '/services', undefined);
    conforms('/api/services', 'get', noKey.status, noKey.body);
    const tooFew = await keyed('POST', '/order', key, { body: { serviceId: productId, link: 'x', amount: 1 } });
    expect(tooFew.status).toBe(400);
    conforms('/api/order', 'post', tooFew.status, tooFew.body);
  });
});
