import type { Category, Platform } from '../store/catalog.models.ts';
import { sequences } from '../store/store.ts';
import { messages } from '../domain/messages.ts';
import { problem } from '../domain/problem.ts';
import { type Actor, type CatalogDeps, commit, missing, refused } from './context.ts';
import { reannounceServices } from './placement.ts';
import { adminPlatformView } from './views.ts';
import { auditDiff, auditFields } from '@smm/platform';

const audited = ['text', 'background', 'visible'] as const;

export type PlatformInput = { id: number; text: string; background: string; visible: boolean };
export type PlatformPatch = Partial<Omit<PlatformInput, 'id'>>;

export function createPlatform(deps: CatalogDeps, actor: Actor, input: PlatformInput) {
  return commit(deps, async (session, _emit, audit) => {
    if (await deps.store.platforms.exists({ _id: input.id }).session(session)) throw refused(problem('PLATFORM_EXISTS', messages.platformExists));
    const sortOrder = await deps.store.nextSeq(sequences.sort('platform'), session);
    const [created] = await deps.store.platforms.create([{ _id: input.id, text: input.text, background: input.background, visible: input.visible, sortOrder }], { session });
    const platform = created!.toObject<Platform>();
    await audit(actor, 'catalog.platform.create', { type: 'platform', id: input.id }, { before: null, after: auditFields(platform, audited) });
    return adminPlatformView(platform);
  });
}

/** Hiding or showing a platform changes what members may order, so its products are re-announced. */
export function updatePlatform(deps: CatalogDeps, actor: Actor, id: number, patch: PlatformPatch) {
  return commit(deps, async (session, emit, audit) => {
    const before = await deps.store.platforms.findById(id).session(session).lean<Platform>();
    if (!before) throw missing(messages.platformNotFound, 'PLATFORM_NOT_FOUND');
    const after = await deps.store.platforms.findOneAndUpdate({ _id: id }, { $set: patch }, { returnDocument: 'after', session }).lean<Platform>();
    if (!after) throw missing(messages.platformNotFound, 'PLATFORM_NOT_FOUND');
    if (after.visible !== before.visible) {
      const categories = await deps.store.categories.find({ platformId: id }).session(session).lean<Category[]>();
      await reannounceServices(deps.store, categories.map((c) => c._id), session, emit, actor);
    }
    await audit(actor, 'catalog.platform.update', { type: 'platform', id }, auditDiff(before, after, audited));
    return adminPlatformView(after);
  });
}

export function deletePlatform(deps: CatalogDeps, actor: Actor, id: number) {
  return commit(deps, async (session, _emit, audit) => {
    const before = await deps.store.platforms.findById(id).session(session).lean<Platform>();
    if (!before) throw missing(messages.platformNotFound, 'PLATFORM_NOT_FOUND');
    if (await deps.store.categories.exists({ platformId: id }).session(session)) throw refused(problem('PLATFORM_HAS_CATEGORIES', messages.platformHasCategories));
    await deps.store.platforms.deleteOne({ _id: id }, { session });
    await audit(actor, 'catalog.platform.delete', { type: 'platform', id }, { before: auditFields(before, audited), after: null });
  });
}
