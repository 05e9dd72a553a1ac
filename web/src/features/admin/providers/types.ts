import type { AdminProviderViewBody, FulfillmentRequest, ForwardRecordBody, FulfillmentNoticeListBody, MappingViewBody, PriceRuleBody, ProviderCheckBody, ProviderServiceViewBody } from '@smm/contracts/http';

/**
 * Rows of the fulfillment admin API the console reads (bff/API.md "Admin: fulfillment"), relayed as
 * fulfillment sends them (@smm/contracts/http, type-only). A provider's `key` is masked by the
 * service ("****abcd"); the full key never leaves it.
 */
export type Provider = AdminProviderViewBody;

/** The provider form's fields (@smm/contracts/http): every field sent; the key may stay blank on an edit (kept). */
export type ProviderInput = Required<Omit<FulfillmentRequest<'providerCreate'>, 'key'>> & Pick<FulfillmentRequest<'providerPatch'>, 'key'>;

/** POST /api/admin/fulfillment/providers/:id/check: the balance call's outcome (and the provider after it). */
export type CheckResult = ProviderCheckBody;
export type ProviderService = ProviderServiceViewBody;
export type PriceRule = PriceRuleBody;
export type Mapping = MappingViewBody;
/** A forward on the review screen; product, link and amount are null for a run fulfillment has not read yet. */
export type Forward = ForwardRecordBody;
/** GET /api/admin/fulfillment/notices: what the price and balance syncs told operators. */
export type NoticeList = FulfillmentNoticeListBody;
