import { z } from 'zod';
import { messages } from '../messages.ts';

/**
 * Shapes of the money bodies. Only types are checked here; the rules with Korean messages (min,
 * max, runs, 5,000-won steps, receipt fields …) belong to the order and wallet services.
 * Numbers may arrive as numeric strings from HTML forms; null/empty mean "not given".
 */
const number = z
  .union([z.number(), z.string().trim().max(32), z.null()], { error: messages.badRequest })
  .optional()
  .transform((v, ctx) => {
    if (v === null || v === undefined || v === '') return undefined;
    const n = typeof v === 'number' ? v : Number(v);
    if (!Number.isFinite(n)) {
      ctx.addIssue({ code: 'custom', message: messages.badRequest });
      return z.NEVER;
    }
    return n;
  });
const text = (max: number) => z.union([z.string().max(max, { error: messages.badRequest }), z.null()], { error: messages.badRequest }).optional().transform((v) => v ?? undefined);
const body = <T extends z.ZodRawShape>(shape: T) => z.object(shape, { error: messages.badRequest });

export const orderBody = body({ serviceId: number, link: text(2048), amount: number, runs: number, interval: number });
export type OrderBody = z.infer<typeof orderBody>;

export const topUpBody = body({
  name: text(100),
  point: number,
  feeType: text(16),
  feeValue: z.union([z.record(z.string(), z.union([z.string().max(200), z.number(), z.null()])), z.null()], { error: messages.badRequest }).optional(),
});

export const adminOrderPatch = body({
  status: z.number({ error: messages.badRequest }).int({ error: messages.badRequest }).optional(),
  startCount: z.union([z.number().int(), z.null()], { error: messages.badRequest }).optional(),
  remains: z.number({ error: messages.badRequest }).int({ error: messages.badRequest }).optional(),
});
