import { type LoginIdsRequest, memberLogin, memberLogins } from '@smm/contracts/http';
import { HttpError } from '@smm/platform';
import { messages } from '../messages.ts';
import { readAnswer } from '../upstream/read-answer.ts';
import type { CallContext, ServiceClient } from '../upstream/service-client.ts';

/**
 * Operators read login ids, never internal ids (issue 12). Lists from wallet and order name members
 * by userId; these helpers ask auth once per page.
 */
export async function loginIdsFor(auth: ServiceClient, ctx: CallContext, userIds: readonly string[]): Promise<Map<string, string>> {
  const unique = [...new Set(userIds)];
  if (unique.length === 0) return new Map();
  const answer = await auth.call(ctx, 'POST', '/admin/members/login-ids', { body: { userIds: unique } satisfies LoginIdsRequest });
  if (answer.status !== 200) throw new HttpError(502, 'SERVICE_FAILED', messages.upstreamFailed);
  const { items } = readAnswer(ctx, answer, memberLogins);
  return new Map(items.map((i) => [i.userId, i.loginId]));
}

/** Adds `loginId` beside each item's `userId` (null for a member auth no longer knows). */
export async function withLoginIds<T extends { userId: string }>(auth: ServiceClient, ctx: CallContext, items: T[]): Promise<Array<T & { loginId: string | null }>> {
  const ids = await loginIdsFor(auth, ctx, items.map((i) => i.userId));
  return items.map((i) => ({ ...i, loginId: ids.get(i.userId) ?? null }));
}

/** The internal id of a login id an operator typed into a filter; null when nobody has it. */
export async function userIdOfLoginId(auth: ServiceClient, ctx: CallContext, loginId: string): Promise<string | null> {
  const answer = await auth.call(ctx, 'GET', `/admin/members/by-login-id/${encodeURIComponent(loginId)}`);
  if (answer.status === 404) return null;
  if (answer.status !== 200) throw new HttpError(502, 'SERVICE_FAILED', messages.upstreamFailed);
  return readAnswer(ctx, answer, memberLogin).userId;
}
