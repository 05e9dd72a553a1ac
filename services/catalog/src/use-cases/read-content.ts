import type { Faq, Notice, RegisterWhere } from '../store/content.models.ts';
import type { CatalogDeps } from './context.ts';
import { faqView, noticeView, registerWhereView, withSortOrder } from './views.ts';

const bySortOrder = { sortOrder: 1, _id: 1 } as const;

/** Notices on top come first (the order screen highlights them), then the rest, each by sortOrder. */
export async function listNotices(deps: CatalogDeps, admin = false) {
  const notices = await deps.store.notices.find().sort({ isTop: -1, ...bySortOrder }).lean<Notice[]>();
  return notices.map((n) => (admin ? withSortOrder(noticeView(n), n) : noticeView(n)));
}

export async function listFaqs(deps: CatalogDeps, admin = false) {
  const faqs = await deps.store.faqs.find().sort(bySortOrder).lean<Faq[]>();
  return faqs.map((f) => (admin ? withSortOrder(faqView(f), f) : faqView(f)));
}

export async function listRegisterWhere(deps: CatalogDeps, admin = false) {
  const options = await deps.store.registerWhere.find().sort(bySortOrder).lean<RegisterWhere[]>();
  return options.map((r) => (admin ? withSortOrder(registerWhereView(r), r) : registerWhereView(r)));
}
