import type {
  AdminCategoryViewBody,
  AdminPlatformViewBody,
  AdminServiceViewBody,
  CategoryViewBody,
  FaqViewBody,
  NoticeViewBody,
  PlatformViewBody,
  RegisterWhereViewBody,
  ServiceViewBody,
} from '@smm/contracts/http';
import { platformIcon } from '../domain/platform-icons.ts';
import { unitPriceWon } from '../domain/price.ts';
import type { Category, Platform, Service } from '../store/catalog.models.ts';
import type { Faq, Notice, RegisterWhere } from '../store/content.models.ts';

/** Answer shapes (spec §3 field names). Admin views add what only operators need. */
export function platformView(p: Platform) {
  return { id: p._id, text: p.text, icon: platformIcon(p._id), visible: p.visible, background: p.background } satisfies PlatformViewBody;
}
export function adminPlatformView(p: Platform) {
  return { ...platformView(p), sortOrder: p.sortOrder } satisfies AdminPlatformViewBody;
}

/** `platform` is the spec's field name; `platformId` says the same for readers of the admin API. */
export function categoryView(c: Category) {
  return { id: c._id, text: c.text, platform: c.platformId, platformId: c.platformId } satisfies CategoryViewBody;
}
export function adminCategoryView(c: Category) {
  return { ...categoryView(c), sortOrder: c.sortOrder } satisfies AdminCategoryViewBody;
}

/** `point` is the unit price in won (≤ 1 decimal digit); `unitPriceDeci` the exact integer behind it. */
export function serviceView(s: Service, platformId: number) {
  return {
    id: s._id,
    text: s.text,
    categoryId: s.categoryId,
    platformId,
    min: s.min,
    max: s.max,
    point: unitPriceWon(s.unitPriceDeci),
    unitPriceDeci: s.unitPriceDeci,
    notice: s.notice,
    enableAuto: s.enableAuto,
    isReadOnly: s.isReadOnly,
    type: s.type ?? 'default',
  } satisfies ServiceViewBody;
}
export function adminServiceView(s: Service, platformId: number) {
  return { ...serviceView(s, platformId), visible: s.visible, sortOrder: s.sortOrder } satisfies AdminServiceViewBody;
}

export function noticeView(n: Notice) {
  return { id: n._id, content: n.content, isTop: n.isTop } satisfies NoticeViewBody;
}
export function faqView(f: Faq) {
  return { id: f._id, title: f.title, answer: f.answer } satisfies FaqViewBody;
}
export function registerWhereView(r: RegisterWhere) {
  return { id: r._id, text: r.text } satisfies RegisterWhereViewBody;
}
export function withSortOrder<T>(view: T, item: { sortOrder: number }): T & { sortOrder: number } {
  return { ...view, sortOrder: item.sortOrder };
}
