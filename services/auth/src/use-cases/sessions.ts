import { randomUUID } from 'node:crypto';
import { isOperatorRole, restrictionBlocks, restrictionMessage } from '@smm/contracts';
import { HttpError, forbidden, notFound, unauthorized } from '@smm/platform';
import { restrictionInForce } from '../domain/restriction-rules.ts';
import { messages } from '../messages.ts';
import type { MemberDoc } from '../store/member.model.ts';
import type { AuthServices } from './context.ts';
import { callingMember } from './account.ts';
import { areasOf } from '../domain/operator-rules.ts';

/** What a log-in answers: a short access token and a refresh token to get the next one. */
export type Session = { accessToken: string; expiresIn: number; refreshToken: string; refreshExpiresIn: number };

export const versionOf = (member: Pick<MemberDoc, 'tokenVersion'>): number => member.tokenVersion ?? 0;

/**
 * Refused before any token is issued: a banned or suspended member cannot start a session, and is
 * told the level, the reason and, for a suspension, until when (issue 12). A warning does not block.
 */
export function requireActive(member: MemberDoc, now = new Date()): void {
  if (member.disabledAt !== undefined && member.disabledAt !== null) throw forbidden(messages.operatorDisabled, 'OPERATOR_DISABLED');
  const restriction = restrictionInForce(member, now);
  if (restriction && restrictionBlocks(restriction, now)) {
    throw forbidden(restrictionMessage(restriction), restriction.level === 'banned' ? 'MEMBER_BANNED' : 'MEMBER_SUSPENDED');
  }
}

/**
 * A session's tokens. `sid` names the session — one log-in on one device — and stays the same
 * through its refreshes, so ending it (log-out, a reused refresh token) reaches its access tokens.
 */
export async function issueSession(
  services: AuthServices,
  member: MemberDoc,
  version = versionOf(member),
  sid: string = randomUUID(),
  until?: number,
): Promise<Session> {
  requireActive(member);
  // Operators' sessions are shorter (issue 41): short access tokens, and an end fixed at sign-in.
  const operator = isOperatorRole(member.role);
  const end = operator ? (until ?? Date.now() + services.operatorSessions.maxSeconds * 1000) : undefined;
  const claims = { sub: member._id, loginId: member.loginId, role: member.role, ver: version, sid };
  const access = operator ? services.tokens.issueAccessToken(claims, services.operatorSessions.accessTtlSeconds) : services.tokens.issueAccessToken(claims);
  const grant = { userId: member._id, version, sid, ...(end !== undefined && { until: end }) };
  const refreshToken = await services.refreshTokens.issue(grant);
  return { ...access, refreshToken, refreshExpiresIn: services.refreshTokens.ttlFor(grant) };
}

/**
 * A refresh token → the session's next tokens (the old refresh token is spent). Refused when the
 * token is unknown, used or expired, the member is gone or banned, or its sessions were ended
 * since. A spent token presented again later than `reuseGraceSeconds` after it was spent (two tabs
 * refreshing at the same moment stay within it) means a copy of it is loose: the whole session
 * ends — the thief's next token and the owner's alike — and the answer names the member so the BFF
 * stops accepting the session's access tokens at once.
 */
export async function refreshSession(services: AuthServices, input: { refreshToken?: unknown }): Promise<Session> {
  const invalid = () => new HttpError(401, 'REFRESH_TOKEN_INVALID', messages.sessionEnded);
  if (typeof input.refreshToken !== 'string' || !/^[A-Za-z0-9_-]{20,100}$/.test(input.refreshToken)) throw invalid();
  const taken = await services.refreshTokens.take(input.refreshToken);
  if (taken.kind === 'reused') {
    const { userId, sid } = taken.grant;
    if (sid !== undefined && taken.spentMsAgo > services.refreshReuseGraceSeconds * 1000) {
      await services.refreshTokens.endSession(userId, sid);
      services.logger.warn({ userId, sid }, 'a spent refresh token was presented again: its session is ended');
      throw new HttpError(401, 'REFRESH_TOKEN_REUSED', messages.sessionEnded, { userId });
    }
    throw invalid();
  }
  if (taken.kind === 'unknown') throw invalid();
  const { grant } = taken;
  if (grant.sid !== undefined && (await services.refreshTokens.sessionEnded(grant.sid))) throw invalid();
  const member = await services.members.findById(grant.userId);
  if (!member || restrictionBlocks(restrictionInForce(member, new Date()), new Date()) || versionOf(member) !== grant.version) throw invalid();
  if (member.disabledAt !== undefined && member.disabledAt !== null) throw invalid();
  if (grant.until !== undefined && grant.until <= Date.now()) throw invalid();
  return issueSession(services, member, versionOf(member), grant.sid, grant.until);
}

/**
 * Log-out on one device: its session ends — the refresh token stops working and so do its access
 * tokens (the BFF is told whose, to stop accepting them at once). Null when the token named no session.
 */
export async function revokeRefreshToken(services: AuthServices, input: { refreshToken?: unknown }): Promise<{ userId: string } | null> {
  if (typeof input.refreshToken !== 'string') return null;
  const taken = await services.refreshTokens.take(input.refreshToken);
  if (taken.kind !== 'grant') return null;
  if (taken.grant.sid !== undefined) await services.refreshTokens.endSession(taken.grant.userId, taken.grant.sid);
  return { userId: taken.grant.userId };
}

/** "Log out everywhere": every access and refresh token issued so far stops working. */
export async function endAllSessions(services: AuthServices, userId: string | null): Promise<{ version: number }> {
  const member = await callingMember(services, userId);
  const version = await services.members.bumpTokenVersion(member._id);
  if (version === null) throw notFound(messages.memberNotFound, 'MEMBER_NOT_FOUND');
  services.logger.info({ userId: member._id, version }, 'all sessions ended');
  return { version };
}

/**
 * What the BFF checks a verified access token against: the member's current token version and
 * status, and the restriction in force (the BFF keeps the answer a while, so it compares a
 * suspension's `until` with its own clock). A member that no longer exists reads as `deleted`.
 */
export async function sessionState(services: AuthServices, caller: { userId: string | null }, userId: string) {
  // The BFF asks for itself (no member in its credential); a member may not read another's state.
  if (caller.userId !== null && caller.userId !== userId) throw unauthorized(messages.callerRequired, 'CALLER_REQUIRED');
  const member = await services.members.findById(userId);
  if (!member) return { userId, status: 'deleted' as const, version: null, restriction: null, endedSessions: [] };
  const now = new Date();
  const restriction = restrictionInForce(member, now);
  const restricted: 'active' | 'banned' | 'suspended' = !restriction || !restrictionBlocks(restriction, now) ? 'active' : restriction.level === 'banned' ? 'banned' : 'suspended';
  const status = member.disabledAt !== undefined && member.disabledAt !== null ? ('disabled' as const) : restricted;
  // The role auth holds now and a staff member's areas (issue 41): the BFF guards console routes by them.
  return { userId, status, version: versionOf(member), restriction, endedSessions: await services.refreshTokens.endedSessions(userId), role: member.role, areas: areasOf(member) };
}
