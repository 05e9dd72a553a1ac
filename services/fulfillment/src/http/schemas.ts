import { z } from 'zod';
import { fulfillmentRequests } from '@smm/contracts/http';
import { messages } from '../domain/messages.ts';

export const idParam = z.object({ id: z.string().regex(/^\d{1,15}$/, { message: messages.idInvalid }).transform(Number) });

/** Request bodies (@smm/contracts/http), with fulfillment's Korean message for each broken rule. */
export const { providerCreate, providerPatch, mapping: mappingBody, reviewAction, requestAction } = fulfillmentRequests(messages);

/** `refill-12`, `cancel-3`: a request of the queue. */
export const requestIdParam = z.object({ id: z.string().regex(/^(refill|cancel)-[1-9]\d{0,14}$/, { message: messages.requestNotFound }) });

export const requestListQuery = z.object({
  state: z.enum(['failed', 'open', 'all'], { error: messages.requestQueryInvalid }).default('failed'),
  kind: z.enum(['refill', 'cancel'], { error: messages.requestQueryInvalid }).optional(),
  limit: z.string().regex(/^\d{1,3}$/, { message: messages.requestQueryInvalid }).transform(Number).pipe(z.number().int().min(1, { message: messages.requestQueryInvalid }).max(200, { message: messages.requestQueryInvalid })).default(50),
});

export const forwardListQuery = z.object({
  state: z.enum(['queued', 'claimed', 'sent', 'accepted', 'failed', 'unknown', 'review', 'manual', 'closed']).optional(),
  limit: z.string().regex(/^\d{1,3}$/).transform(Number).pipe(z.number().int().min(1).max(200)).default(50),
});

export const noticeListQuery = z.object({
  limit: z.string().regex(/^\d{1,3}$/, { message: messages.limitInvalid }).transform(Number).pipe(z.number().int().min(1, { message: messages.limitInvalid }).max(200, { message: messages.limitInvalid })).default(50),
});

const positiveId = (message: string) => z.string({ error: message }).regex(/^[1-9]\d{0,14}$/, { message }).transform(Number);

/** `ids=1,2,3`: at most 100 order ids, a page of the order list. */
export const orderForwardIds = z.object({
  ids: z
    .string({ error: messages.idsInvalid })
    .regex(/^[1-9]\d{0,14}(,[1-9]\d{0,14})*$/, { message: messages.idsInvalid })
    .transform((s) => [...new Set(s.split(',').map(Number))])
    .refine((ids) => ids.length <= 100, { message: messages.idsInvalid }),
});

export const providerOrderQuery = z.object({
  providerId: positiveId(messages.idInvalid),
  userId: z.string().trim().min(1).max(64).optional(),
  productId: positiveId(messages.idInvalid).optional(),
  link: z.string().trim().min(1).max(500).optional(),
  orderId: positiveId(messages.idInvalid).optional(),
  before: positiveId(messages.idInvalid).optional(),
  limit: z.string().regex(/^\d{1,3}$/, { message: messages.limitInvalid }).transform(Number).pipe(z.number().int().min(1, { message: messages.limitInvalid }).max(100, { message: messages.limitInvalid })).default(20),
});
