import { messages } from './messages.ts';
import { type Problem, problem } from './problem.ts';

export type Ordered = { id: number; sortOrder: number };

/**
 * Puts the listed items in the given order by permuting them among the positions they already
 * hold, so reordering a subset (the services of one category) leaves every other item in place.
 * `current` must hold exactly the listed items. Returns the new sortOrder per id.
 */
export function reorderSlots(current: readonly Ordered[], ids: readonly number[]): { ok: true; order: Map<number, number> } | { ok: false; problem: Problem } {
  if (ids.length === 0) return { ok: false, problem: problem('REORDER_EMPTY', messages.reorderEmpty) };
  if (new Set(ids).size !== ids.length) return { ok: false, problem: problem('REORDER_DUPLICATE', messages.reorderDuplicate) };
  const slots = current.map((item) => item.sortOrder).sort((a, b) => a - b);
  const order = new Map<number, number>();
  ids.forEach((id, index) => order.set(id, slots[index] ?? index));
  return { ok: true, order };
}
