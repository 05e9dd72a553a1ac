import type {
  AdminCategoryViewBody,
  AdminFaqViewBody,
  AdminNoticeViewBody,
  AdminPlatformViewBody,
  AdminRegisterWhereViewBody,
  AdminServiceViewBody,
} from '@smm/contracts/http';

/** Rows of catalog's admin API as the BFF relays them (@smm/contracts/http, type-only). */
export type AdminPlatform = AdminPlatformViewBody;
export type AdminCategory = AdminCategoryViewBody;
export type AdminProduct = AdminServiceViewBody;
export type AdminNotice = AdminNoticeViewBody;
export type AdminFaq = AdminFaqViewBody;
export type AdminRegisterWhere = AdminRegisterWhereViewBody;
export type SettingsAnswer = { version: number; items: Array<{ key: string; value: string }>; flags: Record<string, boolean> };
