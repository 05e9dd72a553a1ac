import type { MemberRole } from '../../lib/contracts.ts';
import { staffText } from './staff/messages.ts';
import { catalogueText as c } from './catalogue/messages.ts';
import { auditText } from './audit/messages.ts';
import { supportAdminText } from './support/messages.ts';
import { adminText as t } from './messages.ts';
import { profitText } from './profit/messages.ts';
import { requestText } from './requests/messages.ts';
import { subscriptionAdminText } from './subscriptions/messages.ts';

/**
 * A console screen and who may open it; staff see no balance adjustments, settings or providers,
 * but do settle the review queue (issue 12).
 */
export type ConsoleScreen = { path: string; label: string; adminOnly: boolean; area?: string };

/** The screens of the console in navigation order (only finished screens are listed). */
export const consoleScreens: readonly ConsoleScreen[] = [
  { path: 'dashboard', label: t.dashboard, adminOnly: false },
  { path: 'top-ups', label: t.topUps, adminOnly: false, area: 'top-ups' },
  { path: 'deposits', label: t.deposits, adminOnly: false, area: 'deposits' },
  { path: 'orders', label: t.orders, adminOnly: false, area: 'orders' },
  // Issue 40: subscriptions our operators run by hand (posts, pause); their end refunds, an admin's in the order service.
  { path: 'subscriptions', label: subscriptionAdminText.title, adminOnly: false, area: 'orders' },
  { path: 'members', label: t.members, adminOnly: false, area: 'members' },
  { path: 'review', label: t.review, adminOnly: false, area: 'review' },
  // Refill and cancel requests the provider refused or answered unclearly (issue 41); staff settle
  // them too (the BFF counts /admin/fulfillment/requests in the review area).
  { path: 'requests', label: requestText.requests, adminOnly: false, area: 'review' },
  // Issue 40: staff answer tickets too; only admins write saved replies (checked on that screen and by support).
  { path: 'support', label: supportAdminText.title, adminOnly: false, area: 'support' },
  // Issue 41: exports for both roles (the BFF keeps each file to its area, members and the audit log
  // to admins); profit is the owner's.
  { path: 'exports', label: profitText.exportsTitle, adminOnly: false },
  { path: 'profit', label: profitText.title, adminOnly: true },
  { path: 'providers', label: t.providers, adminOnly: true },
  { path: 'catalogue', label: c.catalogue, adminOnly: true },
  { path: 'content', label: c.content, adminOnly: true },
  { path: 'settings', label: c.settings, adminOnly: true },
  // Admins only: the log oversees every operator, staff included (see bff admin-audit-routes).
  { path: 'audit', label: auditText.title, adminOnly: true },
  // Issue 41: operators, their roles, areas and second factor.
  { path: 'staff', label: staffText.title, adminOnly: true },
];

/** A staff member sees the screens of their areas (issue 41; `areas` absent: all); the BFF refuses the rest anyway. */
export const screensFor = (role: MemberRole, areas?: readonly string[]): ConsoleScreen[] =>
  consoleScreens.filter((s) => role === 'admin' || (!s.adminOnly && (s.area === undefined || areas === undefined || areas.includes(s.area))));

export const roleLabel = (role: MemberRole): string => (role === 'admin' ? t.roleAdmin : t.roleStaff);
