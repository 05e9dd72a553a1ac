import { defaultDatabases } from './reconcile.ts';
import type { Databases } from './report.ts';

/** `wallet=…,order=…,fulfillment=…,auth=…` (RECONCILE_DATABASES): the names given; throws on anything else. */
export function databasesFrom(text: string | undefined): Partial<Databases> {
  if (text === undefined || text.trim() === '') return {};
  const out: Partial<Databases> = {};
  for (const part of text.split(',')) {
    const [key, value] = part.split('=').map((s) => s.trim());
    if (key === undefined || !(key in defaultDatabases) || !value || !/^[A-Za-z0-9_-]{1,63}$/.test(value)) {
      throw new Error(`RECONCILE_DATABASES: "${part}" is not <service>=<database> for one of ${Object.keys(defaultDatabases).join(', ')}`);
    }
    out[key as keyof Databases] = value;
  }
  return out;
}
