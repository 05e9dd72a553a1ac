import { z } from 'zod';
import { messages } from '../domain/messages.ts';

export const idParam = z.object({ id: z.string().regex(/^\d{1,15}$/, { message: messages.idInvalid }).transform(Number) });

const httpUrl = z
  .string({ error: messages.providerUrlInvalid })
  .trim()
  .refine((v) => {
    try {
      return ['http:', 'https:'].includes(new URL(v).protocol);
    } catch {
      return false;
    }
  }, { message: messages.providerUrlInvalid });

const decimal = z.string({ error: messages.thresholdInvalid }).trim().regex(/^\d{1,15}(\.\d{1,8})?$/, { message: messages.thresholdInvalid });

const providerFields = {
  name: z.string({ error: messages.providerNameInvalid }).trim().min(1, { message: messages.providerNameInvalid }).max(100, { message: messages.providerNameInvalid }),
  url: httpUrl,
  key: z.string({ error: messages.providerKeyInvalid }).trim().min(1, { message: messages.providerKeyInvalid }).max(500, { message: messages.providerKeyInvalid }),
  currency: z.string({ error: messages.currencyInvalid }).trim().regex(/^[A-Z]{3}$/, { message: messages.currencyInvalid }),
  /** Deci-won per currency unit; 10 (1 won) for KRW. */
  wonDeciPerUnit: z.number({ error: messages.exchangeRateInvalid }).int({ message: messages.exchangeRateInvalid }).positive({ message: messages.exchangeRateInvalid }).max(100_000_000, { message: messages.exchangeRateInvalid }),
  lowBalanceThreshold: decimal,
  /** Declared by the operator: the provider replays `add` for a repeated Idempotency-Key. */
  idempotentAdd: z.boolean({ error: messages.idempotentAddInvalid }),
};

export const providerCreate = z.object({
  ...providerFields,
  currency: providerFields.currency.default('KRW'),
  wonDeciPerUnit: providerFields.wonDeciPerUnit.default(10),
  lowBalanceThreshold: providerFields.lowBalanceThreshold.default('0'),
  idempotentAdd: providerFields.idempotentAdd.default(false),
});
// Without defaults: zod fills a default into a missing field even under .partial(), so a patch
// of the name alone would reset the currency and threshold.
export const providerPatch = z.object(providerFields).partial();

const rule = z.discriminatedUnion(
  'kind',
  [
    z.object({ kind: z.literal('markup'), percent: z.number().int().min(0).max(1000) }),
    z.object({ kind: z.literal('fixed'), unitPriceDeci: z.number().int().positive().max(10_000_000) }),
  ],
  { error: messages.ruleInvalid },
);

export const mappingBody = z.discriminatedUnion(
  'mode',
  [
    z.object({ mode: z.literal('manual') }),
    z.object({
      mode: z.literal('provider'),
      providerId: z.number().int().positive(),
      providerServiceId: z.string().trim().min(1).max(64),
      rule,
      allowBelowCost: z.boolean().default(false),
    }),
  ],
  { error: messages.ruleInvalid },
);

export const forwardListQuery = z.object({
  state: z.enum(['queued', 'claimed', 'sent', 'accepted', 'failed', 'unknown', 'review', 'manual', 'closed']).optional(),
  limit: z.string().regex(/^\d{1,3}$/).transform(Number).pipe(z.number().int().min(1).max(200)).default(50),
});

export const reviewAction = z.discriminatedUnion(
  'action',
  [
    z.object({ action: z.literal('resend') }),
    z.object({ action: z.literal('link'), providerOrderId: z.string({ error: messages.providerOrderIdInvalid }).trim().regex(/^[\w-]{1,64}$/, { message: messages.providerOrderIdInvalid }) }),
    z.object({ action: z.literal('cancel') }),
  ],
  { error: messages.badAction },
);

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
