import type { Express } from 'express';
import { parseInput } from '@smm/platform';
import type { CatalogDeps } from '../use-cases/context.ts';
import { getService, listCategories, listPlatforms, listServices } from '../use-cases/read-catalog.ts';
import { listFaqs, listNotices, listRegisterWhere } from '../use-cases/read-content.ts';
import { readSettings, settingsEtag, settingsVersion } from '../use-cases/read-settings.ts';
import { idParam } from './schemas.ts';

/** What visitors and members may read (the BFF maps spec §7's /service/... paths onto these). */
export function publicRoutes(app: Express, deps: CatalogDeps): void {
  app.get('/platforms', async (_req, res) => {
    res.json(await listPlatforms(deps));
  });
  app.get('/categories', async (_req, res) => {
    res.json(await listCategories(deps));
  });
  app.get('/services', async (_req, res) => {
    res.json(await listServices(deps));
  });
  app.get('/services/:id', async (req, res) => {
    res.json(await getService(deps, parseInput(idParam, req.params).id));
  });
  app.get('/notices', async (_req, res) => {
    res.json(await listNotices(deps));
  });
  app.get('/faqs', async (_req, res) => {
    res.json(await listFaqs(deps));
  });
  app.get('/register-where', async (_req, res) => {
    res.json(await listRegisterWhere(deps));
  });

  // Settings carry a version (also as ETag) so the BFF can keep its 1-hour cache honest cheaply.
  app.get('/settings/version', async (_req, res) => {
    const version = await settingsVersion(deps);
    res.setHeader('etag', settingsEtag(version));
    res.json({ version, etag: settingsEtag(version) });
  });
  app.get('/settings', async (req, res) => {
    const version = await settingsVersion(deps);
    if (req.get('if-none-match') === settingsEtag(version)) {
      res.setHeader('etag', settingsEtag(version));
      res.status(304).end();
      return;
    }
    const settings = await readSettings(deps);
    res.setHeader('etag', settings.etag);
    res.json(settings);
  });
}
