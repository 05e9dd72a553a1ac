import type { Faq, Notice, RegisterWhere } from '../store/content.models.ts';
import type { CatalogDeps } from './context.ts';
import { cached } from './read-cache.ts';
import { faqView, noticeView, registerWhereView, withSortOrder } from './views.ts';

const bySortOrder = { sortOrder: 1, _id: 1 } as const;

/** Notices on top come first (the order screen highlights them), then the rest, each by sortOrder. */
export async function listNotices(deps: CatalogDeps, admin = false) {
  const notices = () => deps.store.notices.find().sort({ isTop: -1, ...bySortOrder }).lean<Notice[]>();
  if (admin) return (await notices()).map((n) => withSortOrder(noticeView(n), n));
  return cached(deps.cache, 'notices', async () => (await notices()).map(noticeView));
}

export async function listFaqs(deps: CatalogDeps, admin = false) {
  const faqs = () => deps.store.faqs.find().sort(bySortOrder).lean<Faq[]>();
  if (admin) return (await faqs()).map((f) => withSortOrder(faqView(f), f));
  return cached(deps.cache, 'faqs', async () => (await faqs()).map(faqView));
}

export async function listRegisterWhere(deps: CatalogDeps, admin = false) {
  const options = () => deps.store.registerWhere.find().sort(bySortOrder).lean<RegisterWhere[]>();
  if (admin) return (await options()).map((r) => withSortOrder(registerWhereView(r), r));
  return cached(deps.cache, 'register-where', async () => (await options()).map(registerWhereView));
}
