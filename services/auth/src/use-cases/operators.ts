import { type EventOrigin, type MemberRole, isOperatorRole } from '@smm/contracts';
import { HttpError, badRequest, forbidden, inTransaction, notFound, recordOperatorAction } from '@smm/platform';
import { loginKey } from '../domain/login-rules.ts';
import { messages } from '../messages.ts';
import type { MemberDoc } from '../store/member.model.ts';
import { callingMember } from './account.ts';
import type { AuthServices } from './context.ts';

export type OperatorLevel = 'operator' | 'admin';

/**
 * The calling operator, with the role read from auth's own members (not from what the caller
 * claims): auth owns roles, so a role changed a moment ago counts at once.
 */
export async function callingOperator(services: AuthServices, userId: string | null, level: OperatorLevel): Promise<MemberDoc> {
  const member = await callingMember(services, userId);
  const allowed = level === 'admin' ? member.role === 'admin' : isOperatorRole(member.role);
  if (!allowed) throw forbidden(level === 'admin' ? messages.adminOnly : messages.operatorOnly, 'ADMIN_ONLY');
  // A disabled operator's credential is refused here too, not only by the BFF's session check (issue 41).
  if (member.disabledAt) throw forbidden(messages.operatorDisabled, 'OPERATOR_DISABLED');
  return member;
}

/** Login ids of the given members, for operator lists that would otherwise show internal ids. */
export async function loginIdsOf(services: AuthServices, body: Record<string, unknown>) {
  const raw = body.userIds;
  if (!Array.isArray(raw) || raw.length > 500 || !raw.every((id) => typeof id === 'string' && /^[A-Za-z0-9-]{1,64}$/.test(id))) {
    throw badRequest(messages.userIdsInvalid, undefined, 'USER_IDS_INVALID');
  }
  const docs = await services.members.model
    .find({ _id: { $in: [...new Set(raw as string[])] } }, { loginId: 1 })
    .lean<Array<Pick<MemberDoc, '_id' | 'loginId'>>>()
    .exec();
  return { items: docs.map((d) => ({ userId: d._id, loginId: d.loginId })) };
}

/** One member by login id (case-insensitive, as login is): operators filter lists by it. */
export async function memberByLoginId(services: AuthServices, loginId: string) {
  const member = await services.members.model.findOne({ loginKey: loginKey(loginId.trim()) }, { loginId: 1 }).lean<Pick<MemberDoc, '_id' | 'loginId'>>().exec();
  if (!member) throw notFound(messages.memberNotFound, 'MEMBER_NOT_FOUND');
  return { userId: member._id, loginId: member.loginId };
}

/** An admin makes a member staff or back (admins are made by configuration, never here). */
export async function setRole(services: AuthServices, operator: MemberDoc, userId: string, body: Record<string, unknown>, origin: EventOrigin) {
  const role = body.role;
  if (role !== 'member' && role !== 'staff') throw badRequest(messages.roleInvalid, undefined, 'ROLE_INVALID');
  if (userId === operator._id) throw new HttpError(409, 'ROLE_OWN', messages.roleOwn);
  const target = await services.members.findById(userId);
  if (!target) throw notFound(messages.memberNotFound, 'MEMBER_NOT_FOUND');
  if (target.role === 'admin') throw new HttpError(409, 'ROLE_ADMIN', messages.roleAdmin);
  // The change and its audit record commit together; setting the role it already has changes
  // nothing and records nothing.
  const changed = await inTransaction(services.connection, async (session) => {
    const before = await services.members.model
      .findOneAndUpdate({ _id: userId, role: { $nin: ['admin', role] } }, { $set: { role: role satisfies MemberRole } }, { session, projection: { role: 1 } })
      .lean<Pick<MemberDoc, 'role'>>()
      .exec();
    if (!before) return false;
    const act = { caller: { userId: operator._id, role: operator.role }, action: 'auth.member.role', target: { type: 'member', id: userId } } as const;
    await recordOperatorAction(services.connection, session, { ...act, before: { role: before.role }, after: { role } }, origin);
    return true;
  });
  if (changed) services.kickOutbox();
  services.logger.info({ userId, role, operator: operator._id }, 'member role changed');
  return { userId, loginId: target.loginId, role };
}
