import { randomUUID } from 'node:crypto';
import { MemberRestrictionChanged, Topics } from '@smm/contracts';
import { HttpError, appendToOutbox, forbidden, inTransaction, notFound, recordOperatorAction } from '@smm/platform';
import { checkRestrictionChange, restrictionInForce } from '../domain/restriction-rules.ts';
import { messages } from '../messages.ts';
import type { MemberDoc } from '../store/member.model.ts';
import type { RestrictionRecordDoc } from '../store/restriction.model.ts';
import { type AuthServices, type RequestOrigin, ruleError } from './context.ts';

/**
 * An operator sets or lifts a member's restriction (issue 12: warning, suspension until a date,
 * permanent ban; the reason is mandatory, lifting included). Admins and staff alike: the issue
 * keeps only balance adjustments, settings and providers from staff. Operators themselves cannot
 * be restricted here (an admin makes a staff member a member first), so no operator locks another
 * out of the console. The member, the history record and MemberRestrictionChanged commit together.
 * Answers the restriction before and after, for the console and the audit log.
 */
export async function changeRestriction(services: AuthServices, operator: MemberDoc, userId: string, body: Record<string, unknown>, origin: RequestOrigin) {
  // Issue 39: no operator acts on their own account, before anything else is read or checked.
  if (userId === operator._id) throw forbidden(messages.restrictionSelf, 'SELF_ACTION');
  const now = new Date();
  const checked = checkRestrictionChange(body, now);
  if (!checked.ok) throw ruleError(checked.violation);
  const change = checked.value;
  const target = await services.members.findById(userId);
  if (!target) throw notFound(messages.memberNotFound, 'MEMBER_NOT_FOUND');
  if (target.role !== 'member') throw new HttpError(409, 'RESTRICTION_OPERATOR', messages.restrictionOperator);
  const before = restrictionInForce(target, now);
  if (change.level === null && before === null && !target.restriction) throw new HttpError(409, 'RESTRICTION_NONE', messages.restrictionNone);

  const record: RestrictionRecordDoc = {
    _id: randomUUID(),
    userId,
    level: change.level,
    previousLevel: before?.level ?? null,
    reason: change.reason,
    until: change.until,
    changedBy: operator._id,
    changedByLoginId: operator.loginId,
    at: now,
  };
  const stored = change.level === null ? null : { level: change.level, reason: change.reason, until: change.until, setBy: operator._id, setAt: now };
  await inTransaction(services.connection, async (session) => {
    if (!(await services.members.changeRestriction(userId, stored, record, session))) throw notFound(messages.memberNotFound, 'MEMBER_NOT_FOUND');
    const event = MemberRestrictionChanged.create(
      userId,
      { userId, level: change.level, previousLevel: record.previousLevel, reason: change.reason, until: change.until?.toISOString() ?? null, changedBy: operator._id },
      origin,
    );
    await appendToOutbox(services.connection, session, Topics.auth, [event]);
    // The operator audit log: level, reason and end before and after, in the change's transaction.
    const act = { caller: { userId: operator._id, role: operator.role }, action: 'auth.member.restriction', target: { type: 'member', id: userId } } as const;
    const view = (r: { level: string; reason: string; until: Date | string | null } | null) => ({
      level: r?.level ?? null,
      reason: r?.reason ?? null,
      until: r?.until === undefined || r?.until === null ? null : new Date(r.until).toISOString(),
    });
    await recordOperatorAction(services.connection, session, { ...act, before: view(before), after: view(stored) }, origin);
  });
  services.kickOutbox();
  services.logger.info({ userId, level: change.level, previousLevel: record.previousLevel, operator: operator._id, correlationId: origin.correlationId }, 'member restriction changed');
  const after = change.level === null ? null : { level: change.level, reason: change.reason, until: change.until?.toISOString() ?? null };
  return { userId, loginId: target.loginId, before, restriction: after };
}

/** A member's restriction history for the console, newest first. */
export async function restrictionHistory(services: AuthServices, userId: string) {
  const records = await services.members.restrictionHistory(userId);
  return records.map((r) => ({
    id: r._id,
    level: r.level,
    previousLevel: r.previousLevel,
    reason: r.reason,
    until: r.until?.toISOString() ?? null,
    changedByLoginId: r.changedByLoginId,
    at: r.at.toISOString(),
  }));
}
