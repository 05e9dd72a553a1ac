import { z } from 'zod';
import { AutoOrderStatus, OrderStatus } from '@smm/contracts';
import { orderStatusPatchRequest } from '@smm/contracts/http';
import { messages } from '../domain/messages.ts';

const intFromQuery = (min: number, max: number) =>
  z
    .string()
    .regex(/^\d+$/)
    .transform(Number)
    .pipe(z.number().int().min(min).max(max));

export const pagingQuery = z.object({
  page: intFromQuery(1, 1_000_000).default(1),
  pageSize: intFromQuery(1, 100).default(20),
});

export const orderListQuery = pagingQuery.extend({
  userId: z.string().min(1).optional(),
  status: z
    .string()
    .regex(/^\d$/)
    .transform(Number)
    .refine((n) => OrderStatus.is(n), { message: messages.statusInvalid })
    .optional(),
  ids: z
    .string()
    .regex(/^\d+(,\d+)*$/, { message: messages.idsInvalid })
    .transform((s) => [...new Set(s.split(',').map(Number))])
    .refine((ids) => ids.length <= 100, { message: messages.idsInvalid })
    .optional(),
});

export const autoOrderListQuery = pagingQuery.extend({
  userId: z.string().min(1).optional(),
  status: z
    .string()
    .regex(/^\d$/)
    .transform(Number)
    .refine((n) => AutoOrderStatus.is(n), { message: messages.statusInvalid })
    .optional(),
});

export const adminOrderQuery = pagingQuery.extend({
  userId: z.string().min(1).optional(),
  status: orderListQuery.shape.status,
  payment: z.enum(['awaiting', 'paid', 'rejected']).optional(),
});

export const placeQuery = z.object({
  waitMs: intFromQuery(0, 30_000).default(5000),
});

/** The shape the BFF sends (@smm/contracts/http); the domain rules judge the values, in their order. */
export { placeOrderRequest as placeBody, placementLookupRequest } from '@smm/contracts/http';

export const idParam = z.object({ id: z.string().regex(/^\d{1,15}$/).transform(Number) });

/**
 * The contract's change (@smm/contracts/http `orderStatusPatchRequest`); values are checked by the
 * domain's guarded transition, which names the field that is wrong.
 */
export const statusPatchBody = orderStatusPatchRequest.extend({
  /** Member-facing Korean text saying why (fulfillment: the provider refused the link). */
  reason: z.string().trim().min(1, { message: messages.reasonInvalid }).max(200, { message: messages.reasonInvalid }).optional(),
});
