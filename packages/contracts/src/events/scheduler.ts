import { z } from 'zod';
import { defineEvent } from '../envelope.ts';

/**
 * Run `run` (1-based) of an auto order is due. Fired exactly once per run, in order; order turns it
 * into a child order (and ignores it if the auto order is no longer active). Aggregate: `order-<autoOrderId>`.
 */
export const AutoOrderRunDue = defineEvent(
  'AutoOrderRunDue',
  1,
  z.object({ autoOrderId: z.number().int().positive(), userId: z.string().min(1), run: z.number().int().positive(), dueAt: z.iso.datetime({ offset: true }) }),
);

/** A top-up request reached its expiry time; wallet expires it if it is still pending. Aggregate: `topup-<id>`. */
export const TopUpExpiryDue = defineEvent(
  'TopUpExpiryDue',
  1,
  z.object({ topUpId: z.number().int().positive(), userId: z.string().min(1) }),
);

export const schedulerEvents = [AutoOrderRunDue, TopUpExpiryDue] as const;
