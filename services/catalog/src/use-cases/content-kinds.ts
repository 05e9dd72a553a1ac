import { messages } from '../domain/messages.ts';
import type { Faq, Notice, RegisterWhere } from '../store/content.models.ts';
import type { ContentKind } from './manage-content.ts';
import { faqView, noticeView, registerWhereView, withSortOrder } from './views.ts';

type Fields<T> = Omit<T, '_id' | 'sortOrder'>;

// Each kind's records come from its own collection, so the stored shape is that kind's type.
export const noticeKind: ContentKind<Fields<Notice>, ReturnType<typeof noticeView> & { sortOrder: number }> = {
  entity: 'notice',
  view: (n) => withSortOrder(noticeView(n as Notice), n),
  notFound: { message: messages.noticeNotFound, code: 'NOTICE_NOT_FOUND' },
};

export const faqKind: ContentKind<Fields<Faq>, ReturnType<typeof faqView> & { sortOrder: number }> = {
  entity: 'faq',
  view: (f) => withSortOrder(faqView(f as Faq), f),
  notFound: { message: messages.faqNotFound, code: 'FAQ_NOT_FOUND' },
};

export const registerWhereKind: ContentKind<Fields<RegisterWhere>, ReturnType<typeof registerWhereView> & { sortOrder: number }> = {
  entity: 'register-where',
  view: (r) => withSortOrder(registerWhereView(r as RegisterWhere), r),
  notFound: { message: messages.registerWhereNotFound, code: 'REGISTER_WHERE_NOT_FOUND' },
};
