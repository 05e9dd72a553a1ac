import { useMemo } from 'react';
import useSWR from 'swr';
import type { Category, Notice, Platform, Service } from './types.ts';

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
  const visible = useMemo(() => (platforms.data ?? none).filter((p) => p.visible !== false), [platforms.data]);
  return {
    platforms: visible,
    categories: categories.data ?? none,
    services: services.data ?? none,
    loading: !platforms.data && !platforms.error || !categories.data && !categories.error || !services.data && !services.error,
    error: platforms.error ?? categories.error ?? services.error,
    /** Reads the products again (their prices changed since the screen read them). */
    reloadServices: services.mutate,
    /** Reads all three lists again (after a failed read). */
    reload: () => Promise.all([platforms.mutate(), categories.mutate(), services.mutate()]),
  };
}

export function useNotices() {
  return useSWR<Notice[]>('/service/notices');
}
