import type { Category } from '../store/catalog.models.ts';
import { sequences } from '../store/store.ts';
import { messages } from '../domain/messages.ts';
import { problem } from '../domain/problem.ts';
import { type Actor, type CatalogDeps, commit, invalid, missing, refused } from './context.ts';
import { claimPlatform, reannounceServices } from './placement.ts';
import { adminCategoryView } from './views.ts';
import { auditDiff, auditFields } from '@smm/platform';

const audited = ['text', 'platformId'] as const;

export type CategoryInput = { text: string; platformId: number };

const unknownPlatform = () => invalid(problem('UNKNOWN_PLATFORM', messages.unknownPlatform));

export function createCategory(deps: CatalogDeps, actor: Actor, input: CategoryInput) {
  return commit(deps, async (session, _emit, audit) => {
    if (!(await claimPlatform(deps.store, input.platformId, session))) throw unknownPlatform();
    const id = await deps.store.nextSeq(sequences.id('category'), session);
    const sortOrder = await deps.store.nextSeq(sequences.sort('category'), session);
    const [created] = await deps.store.categories.create([{ _id: id, text: input.text, platformId: input.platformId, sortOrder }], { session });
    const category = created!.toObject<Category>();
    await audit(actor, 'catalog.category.create', { type: 'category', id }, { before: null, after: auditFields(category, audited) });
    return adminCategoryView(category);
  });
}

/** Moving a category to another platform moves its products too: replicas hear about each. */
export function updateCategory(deps: CatalogDeps, actor: Actor, id: number, patch: Partial<CategoryInput>) {
  return commit(deps, async (session, emit, audit) => {
    const before = await deps.store.categories.findById(id).session(session).lean<Category>();
    if (!before) throw missing(messages.categoryNotFound, 'CATEGORY_NOT_FOUND');
    if (patch.platformId !== undefined && !(await claimPlatform(deps.store, patch.platformId, session))) throw unknownPlatform();
    const after = await deps.store.categories.findOneAndUpdate({ _id: id }, { $set: patch }, { returnDocument: 'after', session }).lean<Category>();
    if (!after) throw missing(messages.categoryNotFound, 'CATEGORY_NOT_FOUND');
    if (after.platformId !== before.platformId) await reannounceServices(deps.store, [id], session, emit, actor);
    await audit(actor, 'catalog.category.update', { type: 'category', id }, auditDiff(before, after, audited));
    return adminCategoryView(after);
  });
}

export function deleteCategory(deps: CatalogDeps, actor: Actor, id: number) {
  return commit(deps, async (session, _emit, audit) => {
    const before = await deps.store.categories.findById(id).session(session).lean<Category>();
    if (!before) throw missing(messages.categoryNotFound, 'CATEGORY_NOT_FOUND');
    if (await deps.store.services.exists({ categoryId: id }).session(session)) throw refused(problem('CATEGORY_HAS_SERVICES', messages.categoryHasServices));
    await deps.store.categories.deleteOne({ _id: id }, { session });
    await audit(actor, 'catalog.category.delete', { type: 'category', id }, { before: auditFields(before, audited), after: null });
  });
}
