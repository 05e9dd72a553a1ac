import useSWR from 'swr';
import type { Category, Notice, Platform, Service } from '../../lib/types.ts';

/** The public catalogue (spec §7), shared by the order screen and the price list. */
export function useCatalog() {
  const platforms = useSWR<Platform[]>('/service/platforms');
  const categories = useSWR<Category[]>('/service/categorys');
  const services = useSWR<Service[]>('/service/services');
  return {
    platforms: (platforms.data ?? []).filter((p) => p.visible !== false),
    categories: categories.data ?? [],
    services: services.data ?? [],
    loading: !platforms.data && !platforms.error || !categories.data && !categories.error || !services.data && !services.error,
    error: platforms.error ?? categories.error ?? services.error,
  };
}

export function useNotices() {
  return useSWR<Notice[]>('/service/notices');
}
