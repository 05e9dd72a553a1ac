import type { Request, Response, Router } from 'express';
import { HttpError } from '@smm/platform';
import type { TokenVerifier } from '../security/token-verifier.ts';
import { relay } from '../upstream/relay.ts';
import type { ServiceClient } from '../upstream/service-client.ts';
import { access } from './access.ts';
import { callContext } from './context.ts';
import { idParam } from './query.ts';

const notFound = () => new HttpError(404, 'NOT_FOUND', '요청한 대상을 찾을 수 없습니다.');
const stateRule = /^(queued|claimed|sent|accepted|failed|unknown|review|manual|closed)$/;

type Method = 'get' | 'post' | 'patch' | 'put' | 'delete';

/**
 * Our path under /api/admin/fulfillment → the fulfillment service's path; `:id` is checked here.
 * `operator`: admin or staff may call it (the review queue, issue 12); the rest is admin only
 * (providers, their services and balances, mappings and price rules, notices, sync).
 */
const routes: ReadonlyArray<readonly [Method, string, string, 'operator' | 'admin']> = [
  ['get', '/providers', '/admin/providers', 'admin'],
  ['post', '/providers', '/admin/providers', 'admin'],
  ['get', '/providers/:id', '/admin/providers/:id', 'admin'],
  ['patch', '/providers/:id', '/admin/providers/:id', 'admin'],
  ['delete', '/providers/:id', '/admin/providers/:id', 'admin'],
  ['post', '/providers/:id/check', '/admin/providers/:id/check', 'admin'],
  ['post', '/providers/:id/import', '/admin/providers/:id/import', 'admin'],
  ['get', '/providers/:id/services', '/admin/providers/:id/services', 'admin'],
  ['get', '/mappings', '/admin/mappings', 'admin'],
  ['put', '/mappings/:id', '/admin/mappings/:id', 'admin'],
  ['delete', '/mappings/:id', '/admin/mappings/:id', 'admin'],
  ['get', '/forwards', '/admin/forwards', 'operator'],
  ['get', '/forwards/:id', '/admin/forwards/:id', 'operator'],
  ['post', '/forwards/:id/review', '/admin/forwards/:id/review', 'operator'],
  ['get', '/notices', '/admin/notices', 'admin'],
  ['post', '/notices/read', '/admin/notices/read', 'admin'],
];

/**
 * Operators' fulfillment screens: providers, their services, product mappings, the forwarding
 * queues (review, manual) and "sync now". The queues are open to staff, the rest is admin only; the
 * fulfillment service validates the bodies (Korean messages) and checks the role again.
 */
export function adminFulfillmentRoutes(router: Router, verifier: TokenVerifier, fulfillment: ServiceClient): void {
  const guards = { admin: access(verifier, 'admin'), operator: access(verifier, 'operator') };
  for (const [method, path, target, who] of routes) {
    router[method](`/admin/fulfillment${path}`, guards[who], async (req: Request, res: Response) => {
      const servicePath = path.includes(':id') ? target.replace(':id', String(idParam(req.params.id, notFound))) : target;
      const query = new URLSearchParams();
      if (path === '/forwards' || path === '/notices') {
        for (const [name, pattern] of [['state', stateRule], ['limit', /^\d{1,3}$/]] as const) {
          const value = req.query[name];
          if (value === undefined) continue;
          if (typeof value !== 'string' || !pattern.test(value)) throw new HttpError(400, 'VALIDATION_FAILED', '입력 형식이 올바르지 않습니다.', [{ field: name }]);
          query.set(name, value);
        }
      }
      const body = method === 'get' || method === 'delete' ? undefined : (req.body ?? {});
      relay(res, await fulfillment.call(callContext(req), method.toUpperCase(), servicePath, { body, query }));
    });
  }
  // The refill and cancel request queue (issue 41): admin or staff, like the review queue.
  router.get('/admin/fulfillment/requests', guards.operator, async (req: Request, res: Response) => {
    const query = new URLSearchParams();
    for (const [name, pattern] of [['state', /^(failed|open|all)$/], ['kind', /^(refill|cancel)$/], ['limit', /^\d{1,3}$/]] as const) {
      const value = req.query[name];
      if (value === undefined) continue;
      if (typeof value !== 'string' || !pattern.test(value)) throw new HttpError(400, 'VALIDATION_FAILED', '입력 형식이 올바르지 않습니다.', [{ field: name }]);
      query.set(name, value);
    }
    relay(res, await fulfillment.call(callContext(req), 'GET', '/admin/requests', { query }));
  });
  router.post('/admin/fulfillment/requests/:id/resolve', guards.operator, async (req: Request, res: Response) => {
    const id = typeof req.params.id === 'string' && /^(refill|cancel)-[1-9]\d{0,14}$/.test(req.params.id) ? req.params.id : null;
    if (id === null) throw notFound();
    relay(res, await fulfillment.call(callContext(req), 'POST', `/admin/requests/${id}/resolve`, { body: req.body ?? {} }));
  });
  router.post('/admin/fulfillment/sync/:task', guards.admin, async (req: Request, res: Response) => {
    const task = req.params.task;
    if (task !== 'statuses' && task !== 'balances' && task !== 'prices') throw notFound();
    relay(res, await fulfillment.call(callContext(req), 'POST', `/admin/sync/${task}`, { timeoutMs: 120_000 }));
  });
}
