import type { MemberRole } from '../../lib/contracts.ts';
import { catalogueText as c } from './catalogue/messages.ts';
import { auditText } from './audit/messages.ts';
import { adminText as t } from './messages.ts';
import { requestText } from './requests/messages.ts';

/**
 * A console screen and who may open it; staff see no balance adjustments, settings or providers,
 * but do settle the review queue (issue 12).
 */
export type ConsoleScreen = { path: string; label: string; adminOnly: boolean };

/** The screens of the console in navigation order (only finished screens are listed). */
export const consoleScreens: readonly ConsoleScreen[] = [
  { path: 'dashboard', label: t.dashboard, adminOnly: false },
  { path: 'top-ups', label: t.topUps, adminOnly: false },
  { path: 'deposits', label: t.deposits, adminOnly: false },
  { path: 'orders', label: t.orders, adminOnly: false },
  { path: 'members', label: t.members, adminOnly: false },
  { path: 'review', label: t.review, adminOnly: false },
  // Refill and cancel requests the provider refused or answered unclearly (issue 41); staff settle them too.
  { path: 'requests', label: requestText.requests, adminOnly: false },
  { path: 'providers', label: t.providers, adminOnly: true },
  { path: 'catalogue', label: c.catalogue, adminOnly: true },
  { path: 'content', label: c.content, adminOnly: true },
  { path: 'settings', label: c.settings, adminOnly: true },
  // Admins only: the log oversees every operator, staff included (see bff admin-audit-routes).
  { path: 'audit', label: auditText.title, adminOnly: true },
];

export const screensFor = (role: MemberRole): ConsoleScreen[] => consoleScreens.filter((s) => !s.adminOnly || role === 'admin');

export const roleLabel = (role: MemberRole): string => (role === 'admin' ? t.roleAdmin : t.roleStaff);
