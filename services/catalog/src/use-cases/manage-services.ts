import type { Service } from '../store/catalog.models.ts';
import { sequences } from '../store/store.ts';
import { messages } from '../domain/messages.ts';
import { problem } from '../domain/problem.ts';
import { checkQuantityRange } from '../domain/quantity.ts';
import { checkServiceType } from '../domain/service-type.ts';
import { serviceRemoved, serviceUpserted } from '../events/catalog-events.ts';
import { type Actor, type CatalogDeps, commit, invalid, missing } from './context.ts';
import { claimPlacement, placementOf } from './placement.ts';
import { adminServiceView } from './views.ts';
import { auditDiff, auditFields } from '@smm/platform';

const audited = ['text', 'categoryId', 'min', 'max', 'unitPriceDeci', 'notice', 'enableAuto', 'isReadOnly', 'visible', 'type'] as const;

/** What an operator writes: a product without its id and list position. */
export type ServiceInput = Omit<Service, '_id' | 'sortOrder'>;

const unknownCategory = () => invalid(problem('UNKNOWN_CATEGORY', messages.unknownCategory));

export function createService(deps: CatalogDeps, actor: Actor, input: ServiceInput) {
  const range = checkQuantityRange(input.min, input.max) ?? checkServiceType({ ...input, type: input.type ?? 'default' });
  if (range) throw invalid(range);
  return commit(deps, async (session, emit, audit) => {
    const placement = await claimPlacement(deps.store, input.categoryId, session);
    if (!placement) throw unknownCategory();
    const id = await deps.store.nextSeq(sequences.id('service'), session);
    const sortOrder = await deps.store.nextSeq(sequences.sort('service'), session);
    const [created] = await deps.store.services.create([{ _id: id, ...input, sortOrder }], { session });
    const service = created!.toObject<Service>();
    emit(serviceUpserted(service, placement.category, placement.platform, actor));
    await audit(actor, 'catalog.product.create', { type: 'product', id }, { before: null, after: auditFields(service, audited) });
    return adminServiceView(service, placement.category.platformId);
  });
}

/** A partial update; min ≤ max is checked on the values the product will have afterwards. */
export function updateService(deps: CatalogDeps, actor: Actor, id: number, patch: Partial<ServiceInput>) {
  return commit(deps, async (session, emit, audit) => {
    const before = await deps.store.services.findById(id).session(session).lean<Service>();
    if (!before) throw missing(messages.serviceNotFound, 'SERVICE_NOT_FOUND');
    const merged = { type: patch.type ?? before.type ?? 'default', min: patch.min ?? before.min, max: patch.max ?? before.max, enableAuto: patch.enableAuto ?? before.enableAuto };
    const range = checkQuantityRange(merged.min, merged.max) ?? checkServiceType(merged);
    if (range) throw invalid(range);
    const placement = await claimPlacement(deps.store, patch.categoryId ?? before.categoryId, session);
    if (!placement) throw unknownCategory();
    const after = await deps.store.services.findOneAndUpdate({ _id: id }, { $set: patch }, { returnDocument: 'after', session }).lean<Service>();
    if (!after) throw missing(messages.serviceNotFound, 'SERVICE_NOT_FOUND');
    // Replicas hear only about changes to what they hold (a new notice text is not one of them).
    const previous = await placementOf(deps.store, before.categoryId, session);
    const event = serviceUpserted(after, placement.category, placement.platform, actor);
    const old = previous ? serviceUpserted(before, previous.category, previous.platform, actor) : undefined;
    if (JSON.stringify(old?.data) !== JSON.stringify(event.data)) emit(event);
    await audit(actor, 'catalog.product.update', { type: 'product', id }, auditDiff(before, after, audited));
    return adminServiceView(after, placement.category.platformId);
  });
}

export function deleteService(deps: CatalogDeps, actor: Actor, id: number) {
  return commit(deps, async (session, emit, audit) => {
    const before = await deps.store.services.findOneAndDelete({ _id: id }, { session }).lean<Service>();
    if (!before) throw missing(messages.serviceNotFound, 'SERVICE_NOT_FOUND');
    emit(serviceRemoved(id, actor));
    await audit(actor, 'catalog.product.delete', { type: 'product', id }, { before: auditFields(before, audited), after: null });
  });
}
