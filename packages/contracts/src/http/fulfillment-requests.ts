import { z } from 'zod';

/*
 * Fulfillment's operator request bodies (providers, product mappings, the review queue's actions),
 * sent by the console through the BFF, which passes them on. As with catalog's
 * (catalog-requests.ts), the shapes live here and the Korean words stay the service's:
 * `fulfillmentRequests(messages)` builds the schemas fulfillment parses with.
 */

/** The words each broken rule answers with (fulfillment's domain/messages.ts). */
export type FulfillmentRequestMessages = {
  providerNameInvalid: string;
  providerUrlInvalid: string;
  providerKeyInvalid: string;
  currencyInvalid: string;
  exchangeRateInvalid: string;
  thresholdInvalid: string;
  idempotentAddInvalid: string;
  ruleInvalid: string;
  providerOrderIdInvalid: string;
  badAction: string;
  requestActionInvalid: string;
};

export function fulfillmentRequests(m: FulfillmentRequestMessages) {
  const httpUrl = z
    .string({ error: m.providerUrlInvalid })
    .trim()
    .refine((v) => {
      try {
        return ['http:', 'https:'].includes(new URL(v).protocol);
      } catch {
        return false;
      }
    }, { message: m.providerUrlInvalid });

  const decimal = z.string({ error: m.thresholdInvalid }).trim().regex(/^\d{1,15}(\.\d{1,8})?$/, { message: m.thresholdInvalid });

  const providerFields = {
    name: z.string({ error: m.providerNameInvalid }).trim().min(1, { message: m.providerNameInvalid }).max(100, { message: m.providerNameInvalid }),
    url: httpUrl,
    key: z.string({ error: m.providerKeyInvalid }).trim().min(1, { message: m.providerKeyInvalid }).max(500, { message: m.providerKeyInvalid }),
    currency: z.string({ error: m.currencyInvalid }).trim().regex(/^[A-Z]{3}$/, { message: m.currencyInvalid }),
    /** Deci-won per currency unit; 10 (1 won) for KRW. */
    wonDeciPerUnit: z.number({ error: m.exchangeRateInvalid }).int({ message: m.exchangeRateInvalid }).positive({ message: m.exchangeRateInvalid }).max(100_000_000, { message: m.exchangeRateInvalid }),
    lowBalanceThreshold: decimal,
    /** Declared by the operator: the provider replays `add` for a repeated Idempotency-Key. */
    idempotentAdd: z.boolean({ error: m.idempotentAddInvalid }),
  };

  const providerCreate = z.object({
    ...providerFields,
    currency: providerFields.currency.default('KRW'),
    wonDeciPerUnit: providerFields.wonDeciPerUnit.default(10),
    lowBalanceThreshold: providerFields.lowBalanceThreshold.default('0'),
    idempotentAdd: providerFields.idempotentAdd.default(false),
  });
  // Without defaults: zod fills a default into a missing field even under .partial(), so a patch
  // of the name alone would reset the currency and threshold.
  const providerPatch = z.object(providerFields).partial();

  const rule = z.discriminatedUnion(
    'kind',
    [
      z.object({ kind: z.literal('markup'), percent: z.number().int().min(0).max(1000) }),
      z.object({ kind: z.literal('fixed'), unitPriceDeci: z.number().int().positive().max(10_000_000) }),
    ],
    { error: m.ruleInvalid },
  );

  const mapping = z.discriminatedUnion(
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
    { error: m.ruleInvalid },
  );

  const reviewAction = z.discriminatedUnion(
    'action',
    [
      z.object({ action: z.literal('resend') }),
      z.object({ action: z.literal('link'), providerOrderId: z.string({ error: m.providerOrderIdInvalid }).trim().regex(/^[\w-]{1,64}$/, { message: m.providerOrderIdInvalid }) }),
      z.object({ action: z.literal('cancel') }),
      /** An order the provider took whose status answer was not understood: follow its status again. */
      z.object({ action: z.literal('resume') }),
    ],
    { error: m.badAction },
  );

  /** An operator's decision on a failed refill or cancel request (issue 41). */
  const requestAction = z.discriminatedUnion(
    'action',
    [
      z.object({ action: z.literal('retry') }),
      z.object({ action: z.literal('close'), note: z.string({ error: m.requestActionInvalid }).trim().max(200, { message: m.requestActionInvalid }).optional() }),
    ],
    { error: m.requestActionInvalid },
  );

  return { providerCreate, providerPatch, mapping, reviewAction, requestAction };
}

type FulfillmentRequests = ReturnType<typeof fulfillmentRequests>;
/** What the console may send (`z.input`: fields with defaults may be left out). */
export type FulfillmentRequest<K extends keyof FulfillmentRequests> = z.input<FulfillmentRequests[K]>;
