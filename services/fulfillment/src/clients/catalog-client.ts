import type { ServiceType } from '@smm/contracts';
import { operatorHeaders } from './internal-headers.ts';

/** A product as the catalog's admin API shows it. */
export type CatalogProduct = { id: number; text: string; min: number; max: number; unitPriceDeci: number; isReadOnly: boolean };

/** Deci-won as the catalog's `point` text ("12.5"), exactly. */
const pointText = (deci: number) => `${Math.trunc(deci / 10)}.${deci % 10}`;

/**
 * The catalog's admin API: products stay the catalog's, and changing them there means
 * ServiceUpserted flows to order's price replica as for any operator edit.
 */
export function catalogClient(baseUrl: string, serviceAuthSecret: string, timeoutMs = 10_000) {
  const call = async (method: string, path: string, body?: unknown) => {
    const res = await fetch(`${baseUrl}${path}`, {
      method,
      headers: { ...operatorHeaders(serviceAuthSecret, 'catalog'), ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
      body: body === undefined ? null : JSON.stringify(body),
      signal: AbortSignal.timeout(timeoutMs),
    });
    const json = (await res.json().catch(() => undefined)) as unknown;
    return { status: res.status, json };
  };
  return {
    async product(id: number): Promise<CatalogProduct | null> {
      const { status, json } = await call('GET', `/admin/services/${id}`);
      if (status === 404) return null;
      if (status !== 200) throw new Error(`catalog answered ${status}`);
      return json as CatalogProduct;
    },
    /** Sets the products' price, limits or read-only flag; throws unless the catalog took it. */
    async update(id: number, change: { unitPriceDeci?: number; min?: number; max?: number; isReadOnly?: boolean; type?: ServiceType; enableAuto?: boolean }): Promise<CatalogProduct> {
      const { unitPriceDeci, ...rest } = change;
      const body = unitPriceDeci === undefined ? rest : { ...rest, point: pointText(unitPriceDeci) };
      const { status, json } = await call('PATCH', `/admin/services/${id}`, body);
      if (status !== 200) throw new Error(`catalog refused the change (${status}): ${JSON.stringify(json)}`);
      return json as CatalogProduct;
    },
  };
}

export type CatalogClient = ReturnType<typeof catalogClient>;
