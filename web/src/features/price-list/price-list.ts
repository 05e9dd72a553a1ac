import type { Category, Platform, Service } from '../../lib/types.ts';

export type PriceGroup = { platform: Platform; categories: Array<{ category: Category; services: Service[] }> };

/** Every visible service grouped by platform, then category, in the catalogue's display order. */
export function groupPrices(platforms: Platform[], categories: Category[], services: Service[], query = ''): PriceGroup[] {
  const needle = query.trim().toLowerCase();
  return platforms
    .filter((p) => p.visible !== false)
    .map((platform) => ({
      platform,
      categories: categories
        .filter((c) => Number(c.platformId) === platform.id)
        .map((category) => ({
          category,
          services: services.filter((s) => String(s.categoryId) === String(category.id) && (!needle || s.text.toLowerCase().includes(needle) || category.text.toLowerCase().includes(needle) || platform.text.toLowerCase().includes(needle))),
        }))
        .filter((g) => g.services.length > 0),
    }))
    .filter((g) => g.categories.length > 0);
}
