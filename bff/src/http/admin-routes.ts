import type { Request, Response, Router } from 'express';
import { HttpError } from '@smm/platform';
import type { SettingsCache } from '../cache/settings-cache.ts';
import { messages } from '../messages.ts';
import type { TokenVerifier } from '../security/token-verifier.ts';
import { relay } from '../upstream/relay.ts';
import type { ServiceClient } from '../upstream/service-client.ts';
import { access } from './access.ts';
import { callContext } from './context.ts';

/**
 * Admin resources → catalog's `/admin/...` paths. The spec's public spellings (`categorys`,
 * `qnas`) are accepted beside the plain ones so the admin screens can use either.
 */
const resources: Record<string, string> = {
  platforms: 'platforms',
  categories: 'categories',
  categorys: 'categories',
  services: 'services',
  notices: 'notices',
  faqs: 'faqs',
  qnas: 'faqs',
  'register-where': 'register-where',
  settings: 'settings',
};
const safeSegment = /^[A-Za-z0-9_-]{1,64}$/;
const withBody = new Set(['POST', 'PUT', 'PATCH']);

/**
 * Operators edit the catalogue, notices, FAQ, register-where options and settings (admin role only:
 * 401 without a valid token, 403 for members). Catalog validates and answers in Korean; the BFF
 * passes its answer on and drops the settings cache after a settings change.
 */
export function adminRoutes(router: Router, verifier: TokenVerifier, catalog: ServiceClient, settings: SettingsCache): void {
  router.use('/admin', access(verifier, 'admin'));
  const handler = async (req: Request, res: Response) => {
    const params = req.params as { resource: string; item?: string };
    const target = resources[params.resource];
    if (target === undefined || (params.item !== undefined && !safeSegment.test(params.item))) {
      throw new HttpError(404, 'ROUTE_NOT_FOUND', messages.routeNotFound);
    }
    const path = params.item === undefined ? `/admin/${target}` : `/admin/${target}/${params.item}`;
    const ctx = callContext(req);
    const answer = await catalog.call(ctx, req.method, path, withBody.has(req.method) ? { body: req.body ?? {} } : {});
    if (target === 'settings' && req.method !== 'GET' && answer.status >= 200 && answer.status < 300) await settings.invalidate(ctx);
    relay(res, answer);
  };
  for (const path of ['/admin/:resource', '/admin/:resource/:item']) {
    router.get(path, handler);
    router.post(path, handler);
    router.put(path, handler);
    router.patch(path, handler);
    router.delete(path, handler);
  }
}
