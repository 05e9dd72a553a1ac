import { type MemberRate, deciToWon, memberUnitPriceDeci } from '@smm/contracts';
import { memberRateList } from '@smm/contracts/http';
import { HttpError } from '@smm/platform';
import { messages } from '../messages.ts';
import { readAnswer } from '../upstream/read-answer.ts';
import type { CallContext, ServiceClient } from '../upstream/service-client.ts';

/** What a price list item needs to be priced for a member: its id and its catalogue price. */
type Priced = { id: number; point: number; unitPriceDeci: number };

/**
 * The catalogue's price, where a member's rate changed it (issue 40): screens show it struck
 * through beside the member's price. Absent when the member pays the catalogue's price.
 */
export type ListPrice = { listPoint?: number; listUnitPriceDeci?: number };

/**
 * Rates per member on every price the BFF shows (the order screen's and the price list's
 * catalogue, `/api/services`, API v2 `services`): the member's rates come from the order service
 * — the rate store the charge is decided from — and the one pricing rule of contracts
 * (member-rates.ts) turns each catalogue price into the member's, so the price shown is the price
 * charged. Read on every call (no cache here): a rate an admin just set shows on the next read.
 */
export class MemberPrices {
  constructor(private readonly order: ServiceClient) {}

  /** The calling member's rates (`ctx.caller`); none while the order service is not deployed (nothing can be ordered then). */
  async ratesOf(ctx: CallContext): Promise<MemberRate[]> {
    if (!this.order.configured || !ctx.caller) return [];
    const answer = await this.order.call(ctx, 'GET', '/rates');
    if (answer.status !== 200) throw new HttpError(502, 'SERVICE_FAILED', messages.upstreamFailed);
    return readAnswer(ctx, answer, memberRateList).items;
  }

  /** `items` priced for the calling member: `point`/`unitPriceDeci` theirs, the catalogue's kept as `listPoint`/`listUnitPriceDeci` where they differ. */
  async price<T extends Priced>(ctx: CallContext, items: readonly T[]): Promise<Array<T & ListPrice>> {
    const rates = await this.ratesOf(ctx);
    return rates.length === 0 ? [...items] : priceItems(items, rates);
  }
}

export function priceItems<T extends Priced>(items: readonly T[], rates: readonly MemberRate[]): Array<T & ListPrice> {
  return items.map((item) => {
    const deci = memberUnitPriceDeci(item.unitPriceDeci, rates, item.id);
    if (deci === item.unitPriceDeci) return item;
    return { ...item, point: deciToWon(deci), unitPriceDeci: deci, listPoint: item.point, listUnitPriceDeci: item.unitPriceDeci };
  });
}
