import { sequences } from '../store/store.ts';
import type { Store } from '../store/store.ts';

/**
 * Public answers (platforms, categories, services, notices, ...) kept in memory with the catalog
 * version they were computed at. A read costs one counter lookup while nothing changed; any
 * committed write (in this or another replica) moves the version. The version is read before the
 * data, so an answer is never kept under a version newer than what it shows.
 */
export class ReadCache {
  private readonly entries = new Map<string, { version: number; value: unknown }>();

  constructor(private readonly store: Store) {}

  async get<T>(name: string, compute: () => Promise<T>): Promise<T> {
    const version = await this.store.currentSeq(sequences.catalogVersion);
    const entry = this.entries.get(name);
    if (entry && entry.version === version) return entry.value as T;
    const value = await compute();
    this.entries.set(name, { version, value });
    return value;
  }
}

/** Through the cache when there is one. */
export function cached<T>(cache: ReadCache | undefined, name: string, compute: () => Promise<T>): Promise<T> {
  return cache ? cache.get(name, compute) : compute();
}
