/** Roles of an account. Plain constants (no zod) so the web app can import this module too. */
export const memberRoles = ['member', 'staff', 'admin'] as const;
export type MemberRole = (typeof memberRoles)[number];

/**
 * Operators run the site from the console: admin may do everything, staff everything but balance
 * adjustments, site settings and providers (issue 12) — staff do settle fulfillment's review queue.
 */
export const operatorRoles = ['staff', 'admin'] as const satisfies readonly MemberRole[];
export const isOperatorRole = (role: unknown): boolean => (operatorRoles as readonly unknown[]).includes(role);

/**
 * The console sections a staff member may be given (issue 41), one per staff-visible section; an
 * admin has them all. The dashboard is open to every operator. The BFF enforces them on every
 * `/api/admin` route (bff/src/http/operator-areas.ts), not only the console's menu.
 */
export const operatorAreas = ['top-ups', 'deposits', 'orders', 'members', 'review', 'support'] as const;
export type OperatorArea = (typeof operatorAreas)[number];
export const isOperatorArea = (value: unknown): value is OperatorArea => (operatorAreas as readonly unknown[]).includes(value);
