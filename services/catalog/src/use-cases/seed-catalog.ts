import { randomUUID } from 'node:crypto';
import type { ClientSession } from 'mongoose';
import { isDuplicateKeyError } from '@smm/platform';
import type { SeedData } from '../seed/seed-data.ts';
import { type Actor, type CatalogDeps, type Emit, commit } from './context.ts';
import { claimPlacement } from './placement.ts';
import { type SeedContext, type SeedGroup, seedGroups } from './seed-items.ts';

export type SeedReport = { created: number; skipped: number };

/** What seeding one item did: created it (with this id), found it already seeded, or could not place it. */
type Outcome = { created: string } | 'seeded-before' | 'no-parent';

/**
 * Loads the starting catalogue, each item at most once ever: an item is created together with a
 * seed record of its key, in one transaction with its events. A later start finds the record and
 * leaves the item alone — edited, hidden or deleted by the operator — so seeding never overwrites
 * an operator's work, and a key new to a later seed is still added.
 *
 * Items go in a few groups (a platform with its categories and products, the notices, ...), one
 * transaction each, because every commit costs a journal sync and start-up waits for the seed.
 * Two processes seeding at once collide on a record's key; the loser retries the group and then
 * skips what the winner created.
 */
export async function seedCatalog(deps: CatalogDeps, data: SeedData): Promise<SeedReport> {
  const actor: Actor = { correlationId: `seed-${randomUUID()}`, causationId: null };
  const report: SeedReport = { created: 0, skipped: 0 };
  for (const group of seedGroups(deps, data, actor)) {
    const outcomes = await seedGroup(deps, group);
    for (const { key, outcome } of outcomes) {
      if (typeof outcome === 'object') report.created++;
      else report.skipped++;
      if (outcome === 'no-parent') deps.logger.info({ seedKey: key }, 'seed item skipped: its parent was removed');
    }
  }
  deps.logger.info(report, 'seed finished');
  return report;
}

async function seedGroup(deps: CatalogDeps, group: SeedGroup): Promise<Array<{ key: string; outcome: Outcome }>> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await commit(deps, (session, emit) => runGroup(deps, group, session, emit));
    } catch (error) {
      // Another process seeded some of this group first; the retry sees its records and skips them.
      if (!isDuplicateKeyError(error, 'seed_records') || attempt >= 3) throw error;
      deps.logger.info({ group: group.name, attempt }, 'seed group raced another seeder; retrying');
    }
  }
}

async function runGroup(deps: CatalogDeps, group: SeedGroup, session: ClientSession, emit: Emit) {
  const records = await deps.store.seedRecords.find({ _id: { $in: group.items.map((i) => i.key) } }).session(session).lean();
  const seeded = new Map(records.map((r) => [r._id, Number(r.entityId)]));
  const pending = new Map<string, number>();
  for (const item of group.items) if (!seeded.has(item.key)) pending.set(item.entity, (pending.get(item.entity) ?? 0) + 1);

  // Ids come from one block per sequence, sized by the items of that entity still to create.
  const blocks = new Map<string, { next: number; last: number }>();
  const placements = new Map<number, ReturnType<typeof claimPlacement>>();
  const ctx: SeedContext = {
    session,
    emit,
    seededId: (key) => seeded.get(key),
    async next(sequence) {
      let block = blocks.get(sequence);
      if (!block || block.next > block.last) {
        const count = Math.max(1, pending.get(sequence.slice(sequence.indexOf(':') + 1)) ?? 1);
        const last = await deps.store.reserveSeq(sequence, count, session);
        block = { next: last - count + 1, last };
        blocks.set(sequence, block);
      }
      return block.next++;
    },
    placement(categoryId) {
      let placement = placements.get(categoryId);
      if (!placement) placements.set(categoryId, (placement = claimPlacement(deps.store, categoryId, session)));
      return placement;
    },
  };

  const results: Array<{ key: string; outcome: Outcome }> = [];
  const created: Array<{ _id: string; entity: string; entityId: string; seededAt: Date }> = [];
  for (const item of group.items) {
    if (seeded.has(item.key)) {
      results.push({ key: item.key, outcome: 'seeded-before' });
      continue;
    }
    const id = await item.create(ctx);
    if (id === 'no-parent') {
      results.push({ key: item.key, outcome: id });
      continue;
    }
    seeded.set(item.key, Number(id));
    created.push({ _id: item.key, entity: item.entity, entityId: id, seededAt: new Date() });
    results.push({ key: item.key, outcome: { created: id } });
  }
  if (created.length > 0) {
    await deps.store.seedRecords.insertMany(created, { session, ordered: true });
    await group.afterCreate?.(session);
  }
  return results;
}
