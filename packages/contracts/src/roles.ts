/** Roles of an account. Plain constants (no zod) so the web app can import this module too. */
export const memberRoles = ['member', 'staff', 'admin'] as const;
export type MemberRole = (typeof memberRoles)[number];

/**
 * Operators run the site from the console: admin may do everything, staff everything but balance
 * adjustments, site settings and providers (issue 12) — staff do settle fulfillment's review queue.
 */
export const operatorRoles = ['staff', 'admin'] as const satisfies readonly MemberRole[];
export const isOperatorRole = (role: unknown): boolean => (operatorRoles as readonly unknown[]).includes(role);
