/** Rows per page of a member's lists (the BFF's `pageSize`). */
export const pageSize = 20;

/**
 * The request (and SWR key) of one page of a member's list: `path?page=…&pageSize=…[&status=…]`.
 * Plain data (no styles), so routes.ts can name the first page a screen reads.
 */
export function pagedKey(path: string, page: number, status: number | null = null, size = pageSize): string {
  const query = new URLSearchParams({ page: String(page), pageSize: String(size) });
  if (status !== null) query.set('status', String(status));
  return `${path}?${query.toString()}`;
}
