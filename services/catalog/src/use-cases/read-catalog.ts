import type { Category, Platform, Service } from '../store/catalog.models.ts';
import { adminCategoryView, adminPlatformView, adminServiceView, categoryView, platformView, serviceView } from './views.ts';
import { type CatalogDeps, missing } from './context.ts';
import { messages } from '../domain/messages.ts';
import { cached } from './read-cache.ts';

const bySortOrder = { sortOrder: 1, _id: 1 } as const;

/** Members see only visible platforms, the categories of those, and visible products in them. */
function visiblePlatforms(deps: CatalogDeps) {
  return deps.store.platforms.find({ visible: true }).sort(bySortOrder).lean<Platform[]>();
}
async function visibleCategories(deps: CatalogDeps) {
  const platforms = await visiblePlatforms(deps);
  return deps.store.categories.find({ platformId: { $in: platforms.map((p) => p._id) } }).sort(bySortOrder).lean<Category[]>();
}

export async function listPlatforms(deps: CatalogDeps, admin = false) {
  if (admin) return (await deps.store.platforms.find().sort(bySortOrder).lean<Platform[]>()).map(adminPlatformView);
  return cached(deps.cache, 'platforms', async () => (await visiblePlatforms(deps)).map(platformView));
}

export async function listCategories(deps: CatalogDeps, admin = false) {
  if (admin) return (await deps.store.categories.find().sort(bySortOrder).lean<Category[]>()).map(adminCategoryView);
  return cached(deps.cache, 'categories', async () => (await visibleCategories(deps)).map(categoryView));
}

export async function listServices(deps: CatalogDeps, admin = false) {
  if (admin) {
    const categories = await deps.store.categories.find().lean<Category[]>();
    const platformOf = new Map(categories.map((c) => [c._id, c.platformId]));
    const services = await deps.store.services.find().sort(bySortOrder).lean<Service[]>();
    return services.map((s) => adminServiceView(s, platformOf.get(s.categoryId) ?? 0));
  }
  return cached(deps.cache, 'services', async () => {
    const platformOf = new Map((await visibleCategories(deps)).map((c) => [c._id, c.platformId]));
    const services = await deps.store.services.find({ visible: true, categoryId: { $in: [...platformOf.keys()] } }).sort(bySortOrder).lean<Service[]>();
    return services.map((s) => serviceView(s, platformOf.get(s.categoryId) ?? 0));
  });
}

/** One product as members see it: 404 when it, or its platform, is hidden. */
export async function getService(deps: CatalogDeps, id: number, admin = false) {
  const service = await deps.store.services.findById(id).lean<Service>();
  const category = service ? await deps.store.categories.findById(service.categoryId).lean<Category>() : null;
  const platform = category ? await deps.store.platforms.findById(category.platformId).lean<Platform>() : null;
  if (!service || !category) throw missing(messages.serviceNotFound, 'SERVICE_NOT_FOUND');
  if (admin) return adminServiceView(service, category.platformId);
  if (!service.visible || !platform?.visible) throw missing(messages.serviceNotFound, 'SERVICE_NOT_FOUND');
  return serviceView(service, category.platformId);
}
