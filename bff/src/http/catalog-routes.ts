import type { Request, Response, Router } from 'express';
import { settingEnabled, settingKeys } from '@smm/contracts';
import { HttpError } from '@smm/platform';
import type { SettingsCache } from '../cache/settings-cache.ts';
import { relay } from '../upstream/relay.ts';
import type { ServiceClient } from '../upstream/service-client.ts';
import { messages } from '../messages.ts';
import { callContext } from './context.ts';

/**
 * Spec §7 public reads (visitors, guests and members alike) → catalog's resource paths. The
 * services (with prices) are member-price-routes.ts: priced for a signed-in member (issue 40).
 */
const reads: Record<string, string> = {
  '/service/register-where': '/register-where',
  '/service/categorys': '/categories',
  '/service/platforms': '/platforms',
  '/service/notices': '/notices',
};

export function catalogRoutes(router: Router, catalog: ServiceClient, settings: SettingsCache): void {
  for (const [path, upstream] of Object.entries(reads)) {
    router.get(path, async (req: Request, res: Response) => {
      relay(res, await catalog.call(callContext(req), 'GET', upstream));
    });
  }

  // Spec §2/§6: the FAQ exists only while its setting is on (the menu hides it; the API agrees).
  router.get('/service/qnas', async (req: Request, res: Response) => {
    const ctx = callContext(req);
    const { items } = await settings.get(ctx);
    if (!settingEnabled(items.find((item) => item.key === settingKeys.enableQna)?.value)) throw new HttpError(404, 'QNA_DISABLED', messages.qnaDisabled);
    relay(res, await catalog.call(ctx, 'GET', '/faqs'));
  });

  // Spec §7: an array of {key, value}; cached an hour (see SettingsCache).
  router.get('/service/settings', async (req: Request, res: Response) => {
    const { items, outcome } = await settings.get(callContext(req));
    res.setHeader('x-cache', outcome);
    res.json(items);
  });
}
