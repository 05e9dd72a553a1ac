import type { SortableEntity } from '../store/store.ts';
import { sequences } from '../store/store.ts';
import { auditDiff } from '@smm/platform';
import { type Actor, type CatalogDeps, commit, missing } from './context.ts';

/** A record's own fields (what the operator wrote), for the audit log. */
const fieldsOf = (doc: object): Record<string, unknown> =>
  Object.fromEntries(Object.entries(doc).filter(([name]) => !['_id', 'sortOrder', 'createdAt', 'updatedAt'].includes(name)));

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

export function createContent<TFields extends object, TView>(kind: ContentKind<TFields, TView>, deps: CatalogDeps, actor: Actor, fields: TFields) {
  const model = deps.store.sortable(kind.entity);
  return commit(deps, async (session, _emit, audit) => {
    const id = await deps.store.nextSeq(sequences.id(kind.entity), session);
    const sortOrder = await deps.store.nextSeq(sequences.sort(kind.entity), session);
    await model.create([{ ...fields, _id: id, sortOrder }], { session });
    const created = await model.findById(id).session(session).lean();
    await audit(actor, 'catalog.content.create', { type: kind.entity, id }, { before: null, after: fieldsOf(created!) });
    return kind.view(created!);
  });
}

export function updateContent<TFields extends object, TView>(kind: ContentKind<TFields, TView>, deps: CatalogDeps, actor: Actor, id: number, patch: Partial<TFields>) {
  return commit(deps, async (session, _emit, audit) => {
    const before = await deps.store.sortable(kind.entity).findOneAndUpdate({ _id: id }, { $set: patch }, { returnDocument: 'before', session }).lean();
    if (!before) throw missing(kind.notFound.message, kind.notFound.code);
    const after = (await deps.store.sortable(kind.entity).findById(id).session(session).lean())!;
    const fields = fieldsOf(after);
    await audit(actor, 'catalog.content.update', { type: kind.entity, id }, auditDiff(fieldsOf(before), fields, Object.keys(fields)));
    return kind.view(after);
  });
}

export function deleteContent<TFields extends object, TView>(kind: ContentKind<TFields, TView>, deps: CatalogDeps, actor: Actor, id: number) {
  return commit(deps, async (session, _emit, audit) => {
    const before = await deps.store.sortable(kind.entity).findOneAndDelete({ _id: id }, { session }).lean();
    if (!before) throw missing(kind.notFound.message, kind.notFound.code);
    await audit(actor, 'catalog.content.delete', { type: kind.entity, id }, { before: fieldsOf(before), after: null });
  });
}
