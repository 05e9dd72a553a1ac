import type { Express, Request } from 'express';
import { parseInput } from '@smm/platform';
import { messages } from '../domain/messages.ts';
import { parseUnitPrice } from '../domain/price.ts';
import type { CatalogDeps } from '../use-cases/context.ts';
import { invalid } from '../use-cases/context.ts';
import { createCategory, deleteCategory, updateCategory } from '../use-cases/manage-categories.ts';
import { createPlatform, deletePlatform, updatePlatform } from '../use-cases/manage-platforms.ts';
import { createService, deleteService, updateService } from '../use-cases/manage-services.ts';
import { getService, listCategories, listPlatforms, listServices } from '../use-cases/read-catalog.ts';
import { reorderItems } from '../use-cases/reorder-items.ts';
import { actorOf, logChange } from './actor.ts';
import { categoryCreate, categoryPatch, idParam, platformCreate, platformPatch, reorderBody, serviceCreate, servicePatch } from './schemas.ts';

function unitPrice(value: string | number): number {
  const price = parseUnitPrice(value);
  if (!price.ok) throw invalid(price.problem);
  return price.deci;
}

export function adminCatalogRoutes(app: Express, deps: CatalogDeps): void {
  const id = (req: Request) => parseInput(idParam, req.params).id;

  app.get('/admin/platforms', async (_req, res) => {
    res.json(await listPlatforms(deps, true));
  });
  app.post('/admin/platforms', async (req, res) => {
    const created = await createPlatform(deps, actorOf(req), parseInput(platformCreate, req.body));
    logChange(req, 'platform', 'create', created.id);
    res.status(201).json(created);
  });
  app.put('/admin/platforms/order', async (req, res) => {
    const { ids } = parseInput(reorderBody, req.body);
    res.json(await reorderItems(deps, 'platform', ids, { message: messages.platformNotFound, code: 'PLATFORM_NOT_FOUND' }, actorOf(req)));
    logChange(req, 'platform', 'reorder');
  });
  app.patch('/admin/platforms/:id', async (req, res) => {
    res.json(await updatePlatform(deps, actorOf(req), id(req), parseInput(platformPatch, req.body)));
    logChange(req, 'platform', 'update', id(req));
  });
  app.delete('/admin/platforms/:id', async (req, res) => {
    await deletePlatform(deps, actorOf(req), id(req));
    logChange(req, 'platform', 'delete', id(req));
    res.status(204).end();
  });

  app.get('/admin/categories', async (_req, res) => {
    res.json(await listCategories(deps, true));
  });
  app.post('/admin/categories', async (req, res) => {
    const created = await createCategory(deps, actorOf(req), parseInput(categoryCreate, req.body));
    logChange(req, 'category', 'create', created.id);
    res.status(201).json(created);
  });
  app.put('/admin/categories/order', async (req, res) => {
    const { ids } = parseInput(reorderBody, req.body);
    res.json(await reorderItems(deps, 'category', ids, { message: messages.categoryNotFound, code: 'CATEGORY_NOT_FOUND' }, actorOf(req)));
    logChange(req, 'category', 'reorder');
  });
  app.patch('/admin/categories/:id', async (req, res) => {
    res.json(await updateCategory(deps, actorOf(req), id(req), parseInput(categoryPatch, req.body)));
    logChange(req, 'category', 'update', id(req));
  });
  app.delete('/admin/categories/:id', async (req, res) => {
    await deleteCategory(deps, actorOf(req), id(req));
    logChange(req, 'category', 'delete', id(req));
    res.status(204).end();
  });

  app.get('/admin/services', async (_req, res) => {
    res.json(await listServices(deps, true));
  });
  app.get('/admin/services/:id', async (req, res) => {
    res.json(await getService(deps, id(req), true));
  });
  app.post('/admin/services', async (req, res) => {
    const { point, ...fields } = parseInput(serviceCreate, req.body);
    const created = await createService(deps, actorOf(req), { ...fields, unitPriceDeci: unitPrice(point) });
    logChange(req, 'service', 'create', created.id);
    res.status(201).json(created);
  });
  app.put('/admin/services/order', async (req, res) => {
    const { ids } = parseInput(reorderBody, req.body);
    res.json(await reorderItems(deps, 'service', ids, { message: messages.serviceNotFound, code: 'SERVICE_NOT_FOUND' }, actorOf(req)));
    logChange(req, 'service', 'reorder');
  });
  app.patch('/admin/services/:id', async (req, res) => {
    const { point, ...fields } = parseInput(servicePatch, req.body);
    const patch = point === undefined ? fields : { ...fields, unitPriceDeci: unitPrice(point) };
    res.json(await updateService(deps, actorOf(req), id(req), patch));
    logChange(req, 'service', 'update', id(req));
  });
  app.delete('/admin/services/:id', async (req, res) => {
    await deleteService(deps, actorOf(req), id(req));
    logChange(req, 'service', 'delete', id(req));
    res.status(204).end();
  });
}
