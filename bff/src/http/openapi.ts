import type { Request, Response, Router } from 'express';
import { z } from 'zod';
import { resellerAnswers, resellerJsonRoutes, v2Actions, v2Answers, v2ErrorAnswer, v2Examples, v2Requests } from '@smm/contracts';
import { orderBody } from './money-schemas.ts';

type Schema = Record<string, unknown>;
/** JSON Schema 2020-12 (OpenAPI 3.1's own dialect) of what a schema accepts, without its $schema line. */
const schema = (type: z.ZodType): Schema => {
  const { $schema: _drop, ...rest } = z.toJSONSchema(type, { io: 'input', unrepresentable: 'any' }) as Schema;
  return rest;
};
const json = (type: z.ZodType, description: string) => ({ description, content: { 'application/json': { schema: schema(type) } } });
const pathId = (name: string) => ({ name, in: 'path', required: true, schema: { type: 'integer', minimum: 1 } });
const errors = (name: 'v2_error' | 'api_error') => Object.fromEntries(['400', '401', '402', '403', '404', '409', '429', '503'].map((status) => [status, { description: 'Error', content: { 'application/json': { schema: { $ref: `#/components/schemas/${name}` } } } }]));

/**
 * The public reseller API as an OpenAPI 3.1 document, built from the schemas the BFF validates with
 * (the JSON order body) and the shared table of v2 actions and /api routes in @smm/contracts.
 */
export function openApiDocument(baseUrl: string, perMinute: number) {
  const actionRequest = { oneOf: v2Actions.map((a) => ({ $ref: `#/components/schemas/v2_${a}` })), discriminator: { propertyName: 'action', mapping: Object.fromEntries(v2Actions.map((a) => [a, `#/components/schemas/v2_${a}`])) } };
  const examples = Object.fromEntries(v2Actions.map((a) => [a, { summary: a, value: v2Examples[a] }]));
  const v2Operation = (method: 'get' | 'post') => ({
    operationId: `v2_${method}`,
    summary: `API v2 (panel standard): ${v2Actions.join(', ')}`,
    description: 'One endpoint; the `action` field chooses what it does. Errors are `{ "error": "…" }` in English.',
    tags: ['v2'],
    ...(method === 'get'
      ? { parameters: [{ name: 'key', in: 'query', required: true, schema: { type: 'string' } }, { name: 'action', in: 'query', required: true, schema: { type: 'string', enum: [...v2Actions] } }] }
      : { requestBody: { required: true, content: Object.fromEntries(['application/x-www-form-urlencoded', 'multipart/form-data', 'application/json'].map((type) => [type, { schema: actionRequest, examples }])) } }),
    // anyOf, not oneOf: the answers are told apart by the request's `action`, not by their shape (a
    // single order's `status` answer also fits `refill_status`'s `{ status }`).
    responses: { '200': { description: 'The action\'s answer (`components.schemas.v2_<action>_answer`)', content: { 'application/json': { schema: { anyOf: v2Actions.map((a) => ({ $ref: `#/components/schemas/v2_${a}_answer` })) } } } }, ...errors('v2_error') },
  });
  const keyed = { security: [{ apiKey: [] }], tags: ['reseller'] };
  const operations: Record<string, Schema> = {
    'get /api/services': { responses: { '200': json(resellerAnswers.services, 'Orderable services'), ...errors('api_error') } },
    'post /api/order': {
      parameters: [{ name: 'Idempotency-Key', in: 'header', required: false, schema: { type: 'string', maxLength: 255 } }],
      requestBody: { required: true, content: { 'application/json': { schema: schema(orderBody.pick({ serviceId: true, link: true, amount: true })), example: { serviceId: 1, link: 'https://www.instagram.com/p/example', amount: 100 } } } },
      responses: { '201': json(resellerAnswers.order, 'Placed and paid'), ...errors('api_error') },
    },
    'get /api/status/{wId}': {
      parameters: [pathId('wId')],
      responses: { '200': json(resellerAnswers.status, 'Status and remains'), ...errors('api_error') },
    },
    'post /api/refill/{wId}': { parameters: [pathId('wId')], responses: { '201': json(resellerAnswers.refill, 'Refill requested'), ...errors('api_error') } },
    'get /api/refill/{id}': { parameters: [pathId('id')], responses: { '200': json(resellerAnswers.refill, 'The refill request'), ...errors('api_error') } },
    'post /api/cancel/{wId}': { parameters: [pathId('wId')], responses: { '200': json(resellerAnswers.cancel, 'Canceled, or cancel requested from the provider'), ...errors('api_error') } },
  };
  const paths: Record<string, Record<string, unknown>> = { '/api/v2': { get: v2Operation('get'), post: v2Operation('post') } };
  for (const route of resellerJsonRoutes) {
    const operation = operations[`${route.method} ${route.path}`];
    if (operation === undefined) throw new Error(`openapi: ${route.method} ${route.path} has no operation`);
    paths[route.path] = { ...paths[route.path], [route.method]: { operationId: `${route.method}_${route.path.replace(/\W+/g, '_')}`, summary: route.summary, ...keyed, ...operation } };
  }
  return {
    openapi: '3.1.0',
    info: { title: 'SMM panel reseller API', version: '2', description: `Rate limit: ${perMinute} requests per minute per API key (429 with Retry-After).` },
    servers: [{ url: baseUrl }],
    paths,
    components: {
      securitySchemes: { apiKey: { type: 'apiKey', in: 'header', name: 'api-key' } },
      schemas: {
        ...Object.fromEntries(v2Actions.flatMap((a) => [[`v2_${a}`, schema(v2Requests[a])], [`v2_${a}_answer`, schema(v2Answers[a])]])),
        v2_error: schema(v2ErrorAnswer),
        api_error: schema(resellerAnswers.error),
      },
    },
  };
}

/** GET /api/openapi.json — public and cacheable (it changes only with a deploy). */
export function openApiRoutes(router: Router, limits: { perMinute: number }, publicBaseUrl: string | undefined): void {
  const document = JSON.stringify(openApiDocument(publicBaseUrl === undefined ? '/' : publicBaseUrl.replace(/\/+$/, ''), limits.perMinute));
  router.get('/openapi.json', (_req: Request, res: Response) => {
    res.setHeader('cache-control', 'public, max-age=300');
    res.type('application/json').send(document);
  });
}
