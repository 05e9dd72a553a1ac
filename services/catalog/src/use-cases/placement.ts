import type { ClientSession } from 'mongoose';
import type { EventOrigin } from '@smm/contracts';
import { serviceUpserted } from '../events/catalog-events.ts';
import type { Category, Platform, Service } from '../store/catalog.models.ts';
import type { Store } from '../store/store.ts';
import type { Emit } from './context.ts';

/** A category with its platform, read in the caller's transaction; undefined when either is gone. */
export async function placementOf(store: Store, categoryId: number, session: ClientSession) {
  const category = await store.categories.findById(categoryId).session(session).lean<Category>();
  if (!category) return undefined;
  const platform = await store.platforms.findById(category.platformId).session(session).lean<Platform>();
  if (!platform) return undefined;
  return { category, platform };
}

/**
 * Reads a product's placement for a write and marks both parents as written in this transaction.
 * Without the mark, deleting a category (or hiding a platform) while a product is being added to
 * it would both commit — an orphan product, or a replica told "visible" under a hidden platform.
 * With it, one of the two transactions gets a write conflict and is retried against the other's result.
 */
export async function claimPlacement(store: Store, categoryId: number, session: ClientSession) {
  const placement = await placementOf(store, categoryId, session);
  if (!placement) return undefined;
  await store.categories.updateOne({ _id: placement.category._id }, { $set: { updatedAt: new Date() } }, { session });
  await store.platforms.updateOne({ _id: placement.platform._id }, { $set: { updatedAt: new Date() } }, { session });
  return placement;
}

/** Marks a platform as written in this transaction, for the same reason as claimPlacement. */
export async function claimPlatform(store: Store, platformId: number, session: ClientSession): Promise<boolean> {
  const claimed = await store.platforms.updateOne({ _id: platformId }, { $set: { updatedAt: new Date() } }, { session });
  return claimed.matchedCount === 1;
}

/**
 * Re-announces the products of some categories after a change that alters what replicas hold
 * about them (platform visibility, the platform a category belongs to).
 */
export async function reannounceServices(store: Store, categoryIds: number[], session: ClientSession, emit: Emit, origin: EventOrigin): Promise<number> {
  if (categoryIds.length === 0) return 0;
  const services = await store.services.find({ categoryId: { $in: categoryIds } }).sort({ _id: 1 }).session(session).lean<Service[]>();
  for (const service of services) {
    const placement = await placementOf(store, service.categoryId, session);
    if (placement) emit(serviceUpserted(service, placement.category, placement.platform, origin));
  }
  return services.length;
}
