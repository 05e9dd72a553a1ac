import type { Express, Request } from 'express';
import type { z } from 'zod';
import { parseInput } from '@smm/platform';
import { faqKind, noticeKind, registerWhereKind } from '../use-cases/content-kinds.ts';
import type { CatalogDeps } from '../use-cases/context.ts';
import { type ContentKind, createContent, deleteContent, updateContent } from '../use-cases/manage-content.ts';
import { changeSettings } from '../use-cases/change-settings.ts';
import { readSettings } from '../use-cases/read-settings.ts';
import { listFaqs, listNotices, listRegisterWhere } from '../use-cases/read-content.ts';
import { reorderItems } from '../use-cases/reorder-items.ts';
import { actorOf, logChange } from './actor.ts';
import { faqCreate, faqPatch, idParam, noticeCreate, noticePatch, registerWhereCreate, registerWherePatch, reorderBody, settingBody, settingsBody } from './schemas.ts';

type Resource<TFields extends object, TView> = {
  path: string;
  kind: ContentKind<TFields, TView>;
  list: (deps: CatalogDeps, admin: boolean) => Promise<unknown>;
  create: z.ZodType<TFields>;
  patch: z.ZodType<Partial<TFields>>;
};

function contentRoutes<TFields extends object, TView>(app: Express, deps: CatalogDeps, r: Resource<TFields, TView>): void {
  const id = (req: Request) => parseInput(idParam, req.params).id;
  app.get(`/admin/${r.path}`, async (_req, res) => {
    res.json(await r.list(deps, true));
  });
  app.post(`/admin/${r.path}`, async (req, res) => {
    const created = await createContent(r.kind, deps, actorOf(req), parseInput(r.create, req.body));
    logChange(req, r.kind.entity, 'create');
    res.status(201).json(created);
  });
  app.put(`/admin/${r.path}/order`, async (req, res) => {
    const { ids } = parseInput(reorderBody, req.body);
    res.json(await reorderItems(deps, r.kind.entity, ids, r.kind.notFound, actorOf(req)));
    logChange(req, r.kind.entity, 'reorder');
  });
  app.patch(`/admin/${r.path}/:id`, async (req, res) => {
    res.json(await updateContent(r.kind, deps, actorOf(req), id(req), parseInput(r.patch, req.body)));
    logChange(req, r.kind.entity, 'update', id(req));
  });
  app.delete(`/admin/${r.path}/:id`, async (req, res) => {
    await deleteContent(r.kind, deps, actorOf(req), id(req));
    logChange(req, r.kind.entity, 'delete', id(req));
    res.status(204).end();
  });
}

export function adminContentRoutes(app: Express, deps: CatalogDeps): void {
  contentRoutes(app, deps, { path: 'notices', kind: noticeKind, list: listNotices, create: noticeCreate, patch: noticePatch });
  contentRoutes(app, deps, { path: 'faqs', kind: faqKind, list: listFaqs, create: faqCreate, patch: faqPatch });
  contentRoutes(app, deps, { path: 'register-where', kind: registerWhereKind, list: listRegisterWhere, create: registerWhereCreate, patch: registerWherePatch });

  app.get('/admin/settings', async (_req, res) => {
    res.json(await readSettings(deps));
  });
  app.put('/admin/settings', async (req, res) => {
    const { values } = parseInput(settingsBody, req.body);
    const result = await changeSettings(deps, actorOf(req), values);
    logChange(req, 'setting', 'update', result.changed.join(','));
    res.json(result);
  });
  app.put('/admin/settings/:key', async (req, res) => {
    const { value } = parseInput(settingBody, req.body);
    const result = await changeSettings(deps, actorOf(req), { [String(req.params.key)]: value });
    logChange(req, 'setting', 'update', result.changed.join(','));
    res.json(result);
  });
}
