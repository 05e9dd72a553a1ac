import { serviceTypeFromApiName } from '@smm/contracts';
import type { MappingViewBody } from '@smm/contracts/http';
import { auditDiff, auditFields, badRequest, inTransaction, notFound, recordOperatorAction } from '@smm/platform';
import { parseDecimal } from '../domain/decimal.ts';
import { messages } from '../domain/messages.ts';
import { type PriceRule, priceFor, unitCostDeci } from '../domain/price-rule.ts';
import { type ProviderService, providerServiceId, providerServices } from '../store/catalog.model.ts';
import { type Mapping, mappings } from '../store/mapping.model.ts';
import type { Provider } from '../store/provider.model.ts';
import type { FulfillmentDeps } from './context.ts';
import { type Asked, requireProvider } from './providers.ts';

/** What the audit log keeps of a mapping. */
const audited = ['mode', 'providerId', 'providerServiceId', 'rule', 'allowBelowCost', 'unitPriceDeci', 'min', 'max'] as const;

export type MapInput = { mode: 'manual' } | { mode: 'provider'; providerId: number; providerServiceId: string; rule: PriceRule; allowBelowCost: boolean };

/** The catalog's own ceiling on min/max (catalog API: QUANTITY_TOO_LARGE above it). */
const catalogQuantityLimit = 100_000_000;

const wonText = (deci: number) => `${Math.trunc(deci / 10).toLocaleString('ko-KR')}${deci % 10 === 0 ? '' : `.${deci % 10}`}원`;

export function mappingView(m: Mapping) {
  return {
    productId: m._id,
    mode: m.mode,
    providerId: m.providerId,
    providerServiceId: m.providerServiceId,
    rule: m.rule,
    allowBelowCost: m.allowBelowCost,
    costDeci: m.costDeci,
    unitPriceDeci: m.unitPriceDeci,
    min: m.min,
    max: m.max,
    dripfeed: m.dripfeed,
    refill: m.refill,
    cancel: m.cancel,
    suspendedReason: m.suspendedReason,
    updatedAt: m.updatedAt.toISOString(),
  } satisfies MappingViewBody;
}

/**
 * Price, limits and type a provider mapping gives the product; refuses a price below cost without the
 * operator's override. The provider's `type` is read as ours (null: one we cannot sell). A Package's
 * rate is the price of one package, so its cost is the rate itself and its quantity the provider's min.
 */
export function pricedMapping(provider: Provider, service: ProviderService, rule: PriceRule, allowBelowCost: boolean) {
  const rate = parseDecimal(service.rate);
  if (!rate) throw new Error(`stored rate ${service.rate} is not a decimal`);
  const type = serviceTypeFromApiName(service.type);
  const costDeci = unitCostDeci(type === 'package' ? { ...rate, units: rate.units * 1000n } : rate, provider.wonDeciPerUnit);
  const verdict = priceFor(rule, costDeci, allowBelowCost);
  const min = Math.min(service.min, catalogQuantityLimit);
  return { costDeci, verdict, type, min, max: type === 'package' ? min : Math.min(service.max, catalogQuantityLimit) };
}

/**
 * Maps a product of our catalogue to a provider's service (or to manual fulfilment). A provider
 * mapping sets the product's price, min and max in the catalog (its admin API, so ServiceUpserted
 * reaches order as for any edit) and takes dripfeed, refill and cancel from the provider.
 */
export async function mapProduct(deps: FulfillmentDeps, productId: number, input: MapInput, asked?: Asked) {
  const product = await deps.catalog.product(productId);
  if (!product) throw notFound(messages.productNotFound, 'PRODUCT_NOT_FOUND');
  const now = new Date();
  let doc: Mapping;
  if (input.mode === 'manual') {
    doc = { _id: productId, mode: 'manual', providerId: null, providerServiceId: null, rule: null, allowBelowCost: false, costDeci: null, unitPriceDeci: null, min: null, max: null, dripfeed: false, refill: false, cancel: false, suspendedReason: null, updatedAt: now };
  } else {
    const provider = await requireProvider(deps, input.providerId);
    const service = await providerServices(deps.connection).findById(providerServiceId(provider._id, input.providerServiceId)).lean<ProviderService>();
    if (!service || !service.listed) throw notFound(messages.providerServiceNotFound, 'PROVIDER_SERVICE_NOT_FOUND');
    const { costDeci, verdict, min, max, type } = pricedMapping(provider, service, input.rule, input.allowBelowCost);
    if (type === null) throw badRequest(messages.providerServiceTypeUnsupported(service.type), undefined, 'PROVIDER_SERVICE_TYPE_UNSUPPORTED');
    if (!verdict.ok) throw badRequest(messages.belowCost(wonText(verdict.unitPriceDeci), wonText(verdict.costDeci)), { costDeci, unitPriceDeci: verdict.unitPriceDeci }, 'BELOW_COST');
    // The product takes the provider's type (its order fields follow); only default products keep auto orders.
    await deps.catalog.update(productId, { unitPriceDeci: verdict.unitPriceDeci, min, max, isReadOnly: false, type, ...(type === 'default' ? {} : { enableAuto: false }) });
    doc = {
      _id: productId,
      mode: 'provider',
      providerId: provider._id,
      providerServiceId: service.serviceId,
      rule: input.rule,
      allowBelowCost: input.allowBelowCost,
      costDeci,
      unitPriceDeci: verdict.unitPriceDeci,
      min,
      max,
      dripfeed: service.dripfeed,
      refill: service.refill,
      cancel: service.cancel,
      suspendedReason: null,
      updatedAt: now,
    };
  }
  await inTransaction(deps.connection, async (session) => {
    const before = await mappings(deps.connection).findOneAndReplace({ _id: productId }, doc, { upsert: true, session, returnDocument: 'before' }).lean<Mapping>();
    if (!asked) return;
    const change = before ? auditDiff(before, doc, audited) : { before: null, after: auditFields(doc, audited) };
    await recordOperatorAction(deps.connection, session, { caller: asked.caller, action: 'fulfillment.mapping.set', target: { type: 'product', id: String(productId) }, ...change }, asked.origin);
  });
  deps.relay.kick();
  deps.logger.info({ productId, mode: doc.mode, providerId: doc.providerId, providerServiceId: doc.providerServiceId, unitPriceDeci: doc.unitPriceDeci }, 'product mapped');
  return mappingView(doc);
}

export async function unmapProduct(deps: FulfillmentDeps, productId: number, asked?: Asked): Promise<void> {
  await inTransaction(deps.connection, async (session) => {
    const deleted = await mappings(deps.connection).findOneAndDelete({ _id: productId }, { session }).lean<Mapping>();
    if (!deleted) throw notFound(messages.mappingNotFound, 'MAPPING_NOT_FOUND');
    if (!asked) return;
    const act = { caller: asked.caller, action: 'fulfillment.mapping.delete', target: { type: 'product', id: String(productId) } } as const;
    await recordOperatorAction(deps.connection, session, { ...act, before: auditFields(deleted, audited), after: null }, asked.origin);
  });
  deps.relay.kick();
}

export async function listMappings(deps: FulfillmentDeps) {
  return (await mappings(deps.connection).find().sort({ _id: 1 }).lean<Mapping[]>()).map(mappingView);
}
