import type { SortableEntity } from '../store/store.ts';
import { sequences } from '../store/store.ts';
import { type Actor, type CatalogDeps, commit, missing } from './context.ts';

/**
 * Notices, FAQ entries and register-where options: plain records with a numeric id and a sort
 * position that no other service replicates, so their changes emit no events.
 */
export type ContentKind<TFields extends object, TView> = {
  entity: SortableEntity & ('notice' | 'faq' | 'register-where');
  /** Shapes a stored record (the kind's own document type) for the answer. */
  view: (item: { _id: number; sortOrder: number }) => TView;
  notFound: { message: string; code: string };
  /** Only for typing the fields this kind accepts. */
  fields?: TFields;
};

export function createContent<TFields extends object, TView>(kind: ContentKind<TFields, TView>, deps: CatalogDeps, _actor: Actor, fields: TFields) {
  const model = deps.store.sortable(kind.entity);
  return commit(deps, async (session) => {
    const id = await deps.store.nextSeq(sequences.id(kind.entity), session);
    const sortOrder = await deps.store.nextSeq(sequences.sort(kind.entity), session);
    await model.create([{ ...fields, _id: id, sortOrder }], { session });
    const created = await model.findById(id).session(session).lean();
    return kind.view(created!);
  });
}

export function updateContent<TFields extends object, TView>(kind: ContentKind<TFields, TView>, deps: CatalogDeps, _actor: Actor, id: number, patch: Partial<TFields>) {
  return commit(deps, async (session) => {
    const after = await deps.store.sortable(kind.entity).findOneAndUpdate({ _id: id }, { $set: patch }, { returnDocument: 'after', session }).lean();
    if (!after) throw missing(kind.notFound.message, kind.notFound.code);
    return kind.view(after);
  });
}

export function deleteContent<TFields extends object, TView>(kind: ContentKind<TFields, TView>, deps: CatalogDeps, _actor: Actor, id: number) {
  return commit(deps, async (session) => {
    const deleted = await deps.store.sortable(kind.entity).deleteOne({ _id: id }, { session });
    if (deleted.deletedCount === 0) throw missing(kind.notFound.message, kind.notFound.code);
  });
}
