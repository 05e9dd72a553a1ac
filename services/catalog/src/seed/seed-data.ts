import type { SettingKey } from '@smm/contracts';
import { type SeedPlatform, seedPlatforms } from './catalogue.ts';
import { seedFaqs, seedNotices, seedRegisterWhere } from './site-content.ts';
import { seedSettings } from './site-settings.ts';

export type SeedData = {
  platforms: SeedPlatform[];
  notices: Array<{ key: string; content: string; isTop: boolean }>;
  faqs: Array<{ key: string; title: string; answer: string }>;
  registerWhere: Array<{ key: string; text: string }>;
  settings: Partial<Record<SettingKey, string>>;
};

export const defaultSeed: SeedData = {
  platforms: seedPlatforms,
  notices: seedNotices,
  faqs: seedFaqs,
  registerWhere: seedRegisterWhere,
  settings: seedSettings,
};
