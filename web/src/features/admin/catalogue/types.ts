import type {
  AdminCategoryViewBody,
  AdminFaqViewBody,
  AdminNoticeViewBody,
  AdminPlatformViewBody,
  AdminRegisterWhereViewBody,
  AdminServiceViewBody,
  SettingsViewBody,
} from '@smm/contracts/http';

/** Rows of catalog's admin API as the BFF relays them (@smm/contracts/http, type-only). */
export type AdminPlatform = AdminPlatformViewBody;
export type AdminCategory = AdminCategoryViewBody;
export type AdminProduct = AdminServiceViewBody;
export type AdminNotice = AdminNoticeViewBody;
export type AdminFaq = AdminFaqViewBody;
export type AdminRegisterWhere = AdminRegisterWhereViewBody;
/** GET /api/admin/settings: catalog's settings, flags and the version a change names. */
export type SettingsAnswer = SettingsViewBody;
