import { z } from 'zod';
import { serviceTypes } from '../service-types.ts';

/** Catalog service public answers (services/catalog/src/use-cases/views.ts): spec §3 field names. */

export const platformView = z.looseObject({ id: z.number().int(), text: z.string(), icon: z.string(), visible: z.boolean(), background: z.string() });
export type PlatformViewBody = z.infer<typeof platformView>;
/** `platform` is the spec's name of `platformId`. */
export const categoryView = z.looseObject({ id: z.number().int(), text: z.string(), platform: z.number().int(), platformId: z.number().int() });
export type CategoryViewBody = z.infer<typeof categoryView>;
/** `point` is the unit price in won (one decimal at most); `unitPriceDeci` the exact integer behind it. */
export const serviceView = z.looseObject({
  id: z.number().int(),
  text: z.string(),
  categoryId: z.number().int(),
  platformId: z.number().int(),
  min: z.number().int(),
  max: z.number().int(),
  point: z.number(),
  unitPriceDeci: z.number().int(),
  notice: z.string(),
  enableAuto: z.boolean(),
  isReadOnly: z.boolean(),
  /** service-types.ts; absent (a catalog from before types) means default. */
  type: z.enum(serviceTypes).optional(),
});
export type ServiceViewBody = z.infer<typeof serviceView>;
export const noticeView = z.looseObject({ id: z.number().int(), content: z.string(), isTop: z.boolean() });
export type NoticeViewBody = z.infer<typeof noticeView>;
export const faqView = z.looseObject({ id: z.number().int(), title: z.string(), answer: z.string() });
export type FaqViewBody = z.infer<typeof faqView>;
export const registerWhereView = z.looseObject({ id: z.number().int(), text: z.string() });
export type RegisterWhereViewBody = z.infer<typeof registerWhereView>;

/** `GET /platforms`, `/categories`, `/services`, `/register-where`. */
export const platformList = z.array(platformView);
export const categoryList = z.array(categoryView);
export const serviceList = z.array(serviceView);
export const registerWhereList = z.array(registerWhereView);

/** The operators' views (`/admin/...` of catalog, relayed by the BFF): the public view, its order on screens, and for products whether they are shown. */
const sortOrder = z.number().int();
export const adminPlatformView = platformView.extend({ sortOrder });
export type AdminPlatformViewBody = z.infer<typeof adminPlatformView>;
export const adminCategoryView = categoryView.extend({ sortOrder });
export type AdminCategoryViewBody = z.infer<typeof adminCategoryView>;
export const adminServiceView = serviceView.extend({ visible: z.boolean(), sortOrder });
export type AdminServiceViewBody = z.infer<typeof adminServiceView>;
export const adminNoticeView = noticeView.extend({ sortOrder });
export type AdminNoticeViewBody = z.infer<typeof adminNoticeView>;
export const adminFaqView = faqView.extend({ sortOrder });
export type AdminFaqViewBody = z.infer<typeof adminFaqView>;
export const adminRegisterWhereView = registerWhereView.extend({ sortOrder });
export type AdminRegisterWhereViewBody = z.infer<typeof adminRegisterWhereView>;

/**
 * `GET /admin/settings` (read-settings.ts): every setting as text, the flags read as on/off, and the
 * version a change must name (`etag` is its HTTP form).
 */
export const settingsView = z.looseObject({
  version: z.number().int(),
  etag: z.string(),
  items: z.array(z.looseObject({ key: z.string(), value: z.string() })),
  flags: z.record(z.string(), z.boolean()),
});
export type SettingsViewBody = z.infer<typeof settingsView>;

/** `PUT /admin/settings` and `/admin/settings/:key`: the keys whose value changed and the version after. */
export const settingsChange = z.looseObject({ version: z.number().int(), changed: z.array(z.string()) });
export type SettingsChangeBody = z.infer<typeof settingsChange>;
