import { z } from 'zod';
import { hasUnsafeChars, isAcceptableLink } from '@smm/contracts';
import { messages } from '../messages.ts';

/**
 * Shapes of the money bodies. Only types are checked here; the rules with Korean messages (min,
 * max, runs, 5,000-won steps, receipt fields …) belong to the order and wallet services, which also
 * judge odd values (a non-numeric amount is theirs to refuse with their message).
 * Numbers may arrive as decimal strings from HTML forms and API v2; absent or null mean "not given".
 */
const number = z
  .union([z.number(), z.string().trim().max(32), z.null()], { error: messages.badRequest })
  .optional()
  .transform((v) => {
    // Absent or null: not given. An empty or odd string goes on as it is, for the service to refuse
    // (an empty `runs` must not quietly make a one-off order); only decimal strings become numbers.
    if (v === null || v === undefined) return undefined;
    if (typeof v === 'number') return v;
    return /^-?\d+(\.\d+)?$/.test(v) ? Number(v) : v;
  });
const text = (max: number) => z.union([z.string().max(max, { error: messages.badRequest }), z.null()], { error: messages.badRequest }).optional().transform((v) => v ?? undefined);
const body = <T extends z.ZodRawShape>(shape: T) => z.object(shape, { error: messages.badRequest });

/** An empty link is the order service's to refuse (its message); a present one must be http(s) or a profile name. */
const link = text(2048).refine((v) => v === undefined || v.trim() === '' || isAcceptableLink(v), { error: messages.linkInvalid });

/** A typed product's fields (service-types.ts; a subscription's min, max, posts, delay, expiry): the order service checks them by the product's type. */
const typed = { comments: text(200_000), usernames: text(200_000), username: text(200), min: number, max: number, posts: number, delay: number, expiry: text(40) };
export const orderBody = body({ serviceId: number, link, amount: number, runs: number, interval: number, ...typed });
export type OrderBody = z.infer<typeof orderBody>;

/**
 * The web's order form also sends the unit price it showed (deci-won): the order service charges
 * exactly that or refuses with 409 PRICE_CHANGED. API callers see no price first and send none.
 */
export const webOrderBody = orderBody.extend({ unitPriceDeci: number });
export type WebOrderBody = z.infer<typeof webOrderBody>;

const scalar = z.union([z.string().max(200), z.number(), z.boolean(), z.null()], { error: messages.badRequest }).optional();
/** Wallet checks every top-up rule in its order with its own messages; only the fields go on. */
export const topUpBody = body({
  // The depositor name is read by operators and exported: no line breaks, NULs or bidi overrides.
  name: scalar.refine((v) => typeof v !== 'string' || !hasUnsafeChars(v), { error: messages.textInvalid }),
  point: scalar,
  feeType: scalar,
  feeValue: z.union([z.record(z.string(), scalar), z.null()], { error: messages.badRequest }).optional(),
});

export const adminOrderPatch = body({
  status: z.number({ error: messages.badRequest }).int({ error: messages.badRequest }).optional(),
  startCount: z.union([z.number().int(), z.null()], { error: messages.badRequest }).optional(),
  remains: z.number({ error: messages.badRequest }).int({ error: messages.badRequest }).optional(),
});
