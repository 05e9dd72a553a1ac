import type { Express, Request, Response } from 'express';
import { parseInput } from '@smm/platform';
import type { FulfillmentDeps } from '../use-cases/context.ts';
import { importServices, listProviderServices } from '../use-cases/import-services.ts';
import { listMappings, mapProduct, unmapProduct } from '../use-cases/map-product.ts';
import { listNotices, markNoticesRead } from '../use-cases/notices.ts';
import { checkProvider, createProvider, deleteProvider, providerView, requireProvider, updateProvider } from '../use-cases/providers.ts';
import { askedBy } from './actor.ts';
import { idParam, mappingBody, noticeListQuery, providerCreate, providerPatch } from './schemas.ts';

/** Operators' providers, their imported services, product mappings and notices. Mounted behind adminOnly. */
export function providerRoutes(app: Express, deps: FulfillmentDeps): void {
  app.get('/admin/providers', async (_req: Request, res: Response) => {
    res.json((await deps.providers.list()).map(providerView));
  });
  app.post('/admin/providers', async (req: Request, res: Response) => {
    const created = await createProvider(deps, parseInput(providerCreate, req.body ?? {}), askedBy(req));
    req.log.info({ providerId: created.id, url: created.url }, 'provider created');
    res.status(201).json(created);
  });
  app.get('/admin/providers/:id', async (req: Request, res: Response) => {
    res.json(providerView(await requireProvider(deps, parseInput(idParam, req.params).id)));
  });
  app.patch('/admin/providers/:id', async (req: Request, res: Response) => {
    res.json(await updateProvider(deps, parseInput(idParam, req.params).id, parseInput(providerPatch, req.body ?? {}), askedBy(req)));
  });
  app.delete('/admin/providers/:id', async (req: Request, res: Response) => {
    await deleteProvider(deps, parseInput(idParam, req.params).id, askedBy(req));
    res.status(204).end();
  });
  app.post('/admin/providers/:id/check', async (req: Request, res: Response) => {
    res.json(await checkProvider(deps, parseInput(idParam, req.params).id));
  });
  app.post('/admin/providers/:id/import', async (req: Request, res: Response) => {
    res.json(await importServices(deps, parseInput(idParam, req.params).id));
  });
  app.get('/admin/providers/:id/services', async (req: Request, res: Response) => {
    res.json(await listProviderServices(deps, parseInput(idParam, req.params).id));
  });

  app.get('/admin/mappings', async (_req: Request, res: Response) => {
    res.json(await listMappings(deps));
  });
  app.put('/admin/mappings/:id', async (req: Request, res: Response) => {
    res.json(await mapProduct(deps, parseInput(idParam, req.params).id, parseInput(mappingBody, req.body ?? {}), askedBy(req)));
  });
  app.delete('/admin/mappings/:id', async (req: Request, res: Response) => {
    await unmapProduct(deps, parseInput(idParam, req.params).id, askedBy(req));
    res.status(204).end();
  });

  // What the price and balance syncs told operators (repriced, read-only, resumed, balance low).
  app.get('/admin/notices', async (req: Request, res: Response) => {
    res.json(await listNotices(deps, parseInput(noticeListQuery, req.query).limit));
  });
  app.post('/admin/notices/read', async (_req: Request, res: Response) => {
    res.json(await markNoticesRead(deps));
  });
}
