import type { SWRConfiguration } from 'swr';
import { api } from './api.ts';

/** Spec §7: the query client does not retry and does not refetch on focus. */
export const swrConfig: SWRConfiguration = {
  fetcher: (path: string) => api(path),
  shouldRetryOnError: false,
  revalidateOnFocus: false,
  revalidateOnReconnect: false,
};

export const hour = 60 * 60 * 1000;
