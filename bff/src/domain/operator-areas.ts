import type { OperatorArea } from '@smm/contracts';

/**
 * Which console area an operator route under `/api/admin` belongs to (issue 41), so a staff member
 * is held to the areas an admin gave them on the server, whatever the console shows. `any`: open to
 * every operator (the dashboard, one's own account). A staff route not listed here is refused to
 * staff: a new staff route names its area in this table.
 */
const table: ReadonlyArray<readonly [prefix: string, area: OperatorArea | 'any']> = [
  ['/admin/dashboard', 'any'],
  ['/admin/reconcile', 'any'],
  ['/admin/me', 'any'],
  // The dashboard's 처리할 일 list; each line links into its own area.
  ['/admin/attention', 'any'],
  ['/admin/top-ups', 'top-ups'],
  ['/admin/deposits', 'deposits'],
  // Subscriptions run by hand (issue 40): posts, pause/resume; their end refunds, so it is admins' in the order service.
  ['/admin/orders/subscriptions', 'orders'],
  ['/admin/orders', 'orders'],
  ['/admin/members', 'members'],
  ['/admin/member-rankings', 'members'],
  // CSV exports by what they hold (members and the audit log are admins' in the route itself).
  ['/admin/exports/orders', 'orders'],
  ['/admin/exports/top-ups', 'top-ups'],
  ['/admin/exports/deposits', 'deposits'],
  ['/admin/exports/ledger', 'members'],
  // The members and audit-log files: the route answers staff ADMIN_ONLY itself.
  ['/admin/exports', 'any'],
  // The review queue and fulfillment's other operator queues.
  ['/admin/fulfillment', 'review'],
  // Support tickets (saved replies' changes are admins' in the route itself).
  ['/admin/support', 'support'],
];

/** The area of a path below `/api` (e.g. `/admin/top-ups/12/approve`), or null when none is known. */
export function areaOfPath(path: string): OperatorArea | 'any' | null {
  for (const [prefix, area] of table) {
    if (path === prefix || path.startsWith(`${prefix}/`) || path.startsWith(`${prefix}.`) || path.startsWith(`${prefix}?`)) return area;
  }
  return null;
}

/** True when a staff member with `areas` may call `path`. */
export function staffMayCall(path: string, areas: readonly string[]): boolean {
  const area = areaOfPath(path);
  return area === 'any' || (area !== null && areas.includes(area));
}
