import { type MemberRate, memberUnitPriceDeci } from '@smm/contracts';
import type { Product } from './product.ts';

/**
 * The product as this member buys it (issue 40): the replica's unit price under the member's rate
 * (contracts' member-rates.ts: the one rule the BFF shows prices with). Everything downstream —
 * the 409 check against the shown price, the stored unit price, the charge, an auto order's runs —
 * reads this price, so a member is charged exactly what they were shown.
 */
export function priceForMember(product: Product, rates: readonly MemberRate[]): Product {
  if (rates.length === 0) return product;
  const unitPriceDeci = memberUnitPriceDeci(product.unitPriceDeci, rates, product.serviceId);
  return unitPriceDeci === product.unitPriceDeci ? product : { ...product, unitPriceDeci };
}
