/**
 * `@smm/contracts/http`: the HTTP request and answer schemas (zod) shared by the services, the BFF
 * and the web app. Plain modules (zod only, nothing of node), so the browser may import them.
 */
export * from './common.ts';
export * from './auth.ts';
export * from './order.ts';
export * from './wallet.ts';
export * from './fulfillment.ts';
export * from './fulfillment-requests.ts';
export * from './catalog.ts';
export * from './catalog-requests.ts';
export * from './reseller.ts';
export * from './member.ts';
export * from './admin-console.ts';
export * from './reconcile.ts';
export * from './reports.ts';
export * from './support.ts';
export * from './member-rates.ts';
