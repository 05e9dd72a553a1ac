import { messages } from './messages.ts';
import { type Problem, problem } from './problem.ts';

/**
 * Largest order quantity a product may allow. Together with the highest unit price it keeps
 * `unit price × quantity × runs` far inside exact integer range.
 */
export const maxQuantity = 100_000_000;

/** A product's quantity range: positive integers, min ≤ max (checked on the merged values of an update). */
export function checkQuantityRange(min: number, max: number): Problem | undefined {
  if (!Number.isInteger(min) || min < 1) return problem('INVALID_MIN', messages.minInvalid);
  if (!Number.isInteger(max) || max < 1) return problem('INVALID_MAX', messages.maxInvalid);
  if (min > maxQuantity || max > maxQuantity) return problem('QUANTITY_TOO_LARGE', messages.quantityTooLarge);
  if (min > max) return problem('MIN_ABOVE_MAX', messages.minAboveMax);
  return undefined;
}
