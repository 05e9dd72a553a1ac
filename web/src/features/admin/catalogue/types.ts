/** Rows of catalog's admin API as the BFF relays them (services/catalog/API.md). */
export type AdminPlatform = { id: number; text: string; icon: string; visible: boolean; background: string; sortOrder: number };
export type AdminCategory = { id: number; text: string; platformId: number; sortOrder: number };
export type AdminProduct = {
  id: number;
  text: string;
  categoryId: number;
  platformId: number;
  min: number;
  max: number;
  point: number;
  unitPriceDeci: number;
  notice: string;
  enableAuto: boolean;
  isReadOnly: boolean;
  visible: boolean;
  sortOrder: number;
};
export type AdminNotice = { id: number; content: string; isTop: boolean; sortOrder: number };
export type AdminFaq = { id: number; title: string; answer: string; sortOrder: number };
export type AdminRegisterWhere = { id: number; text: string; sortOrder: number };
export type SettingsAnswer = { version: number; items: Array<{ key: string; value: string }>; flags: Record<string, boolean> };
