import { useDeferredValue, useMemo } from 'react';
import useSWR from 'swr';
import type { Category, Notice, Platform, Service } from '../../lib/types.ts';

const none: never[] = [];

/**
 * The public catalogue (spec §7), shared by the order screen and the price list. The lists keep
 * their identity between renders until an answer changes them, so what the screens derive from
 * them (memoized) is worked out once per answer, not on every keystroke.
 */
export function useCatalog() {
  const platforms = useSWR<Platform[]>('/service/platforms');
  const categories = useSWR<Category[]>('/service/categorys');
  const services = useSWR<Service[]>('/service/services');
  // Deferred: when an answer arrives, React renders the screen's lists in slices of a few
  // milliseconds between other work (the placeholders stay until they are ready), not in one task
  // — on a phone that task was the longest after the first paint of /order.
  const platformList = useDeferredValue(platforms.data);
  const categoryList = useDeferredValue(categories.data);
  const serviceList = useDeferredValue(services.data);
  const visible = useMemo(() => (platformList ?? none).filter((p) => p.visible !== false), [platformList]);
  return {
    platforms: visible,
    categories: categoryList ?? none,
    services: serviceList ?? none,
    loading: !platformList && !platforms.error || !categoryList && !categories.error || !serviceList && !services.error,
    error: platforms.error ?? categories.error ?? services.error,
    /** Reads the products again (their prices changed since the screen read them). */
    reloadServices: services.mutate,
  };
}

export function useNotices() {
  return useSWR<Notice[]>('/service/notices');
}
