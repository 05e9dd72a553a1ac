import type { SortableEntity } from '../store/store.ts';
import { reorderSlots } from '../domain/reorder.ts';
import { type Actor, type CatalogDeps, commit, invalid, missing } from './context.ts';

/** The audit log's target type of each sortable entity (a catalog service is a product). */
const targetType = { platform: 'platform', category: 'category', service: 'product', notice: 'notice', faq: 'faq', 'register-where': 'register-where' } as const;

/**
 * Puts the listed items in the given order among the positions they already hold. Sort positions
 * are not replicated by any other service, so no event follows.
 */
export function reorderItems(deps: CatalogDeps, entity: SortableEntity, ids: number[], notFound: { message: string; code: string }, actor?: Actor) {
  const model = deps.store.sortable(entity);
  return commit(deps, async (session, _emit, audit) => {
    const current = await model.find({ _id: { $in: ids } }, { _id: 1, sortOrder: 1 }).session(session).lean();
    const found = new Set(current.map((item) => item._id));
    const unknown = ids.find((id) => !found.has(id));
    if (unknown !== undefined) throw missing(`${notFound.message} (${unknown})`, notFound.code);
    const result = reorderSlots(current.map((item) => ({ id: item._id, sortOrder: item.sortOrder })), ids);
    if (!result.ok) throw invalid(result.problem);
    for (const [id, sortOrder] of result.order) await model.updateOne({ _id: id }, { $set: { sortOrder } }, { session });
    if (actor) {
      // The listed items in their display order before and after; the target is the list itself.
      const before = [...current].sort((a, b) => a.sortOrder - b.sortOrder).map((item) => item._id);
      await audit(actor, 'catalog.items.reorder', { type: targetType[entity], id: 'sort-order' }, { before: { order: before }, after: { order: ids } });
    }
    return { ids, positions: Object.fromEntries(result.order) };
  });
}
