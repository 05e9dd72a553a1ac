import type { AuditPageBody } from '@smm/contracts/http';
import { auditActions, auditTargetTypes } from '@smm/contracts';
import { badRequest } from '@smm/platform';
import { loginKey } from '../domain/login-rules.ts';
import { messages } from '../messages.ts';
import type { MemberDoc } from '../store/member.model.ts';
import type { AuthServices } from '../use-cases/context.ts';
import { type AuditRecord, auditRecordModel } from './audit-record.model.ts';

const maxPageSize = 100;
const kstOffsetMs = 9 * 3600_000;
const actions: ReadonlySet<string> = new Set(auditActions);
const targetTypes: ReadonlySet<string> = new Set(auditTargetTypes);

const text = (value: unknown): string => (typeof value === 'string' ? value.trim() : '');

/**
 * A bound of the date range: `yyyy-mm-dd` is a whole day in Korean time (from its first instant,
 * or up to its last when `end`), anything else must be an ISO instant. null when absent.
 */
function bound(value: string, end: boolean): Date | null {
  if (value === '') return null;
  const day = /^(\d{4})-(\d{2})-(\d{2})$/.exec(value);
  if (day) {
    const start = Date.UTC(Number(day[1]), Number(day[2]) - 1, Number(day[3])) - kstOffsetMs;
    const date = new Date(end ? start + 86_400_000 : start);
    if (!Number.isNaN(date.getTime())) return date;
  } else if (/^\d{4}-\d{2}-\d{2}T/.test(value)) {
    const date = new Date(value);
    if (!Number.isNaN(date.getTime())) return date;
  }
  throw badRequest(messages.auditDateInvalid, undefined, 'QUERY_INVALID');
}

/**
 * The audit log, newest first, filtered by the operator's login id, the action, the target (type
 * and/or id), the login id of the member a money action benefited (`beneficiary`, issue 39) and a date range, paged on the server (issue 12). Actors and member targets are
 * answered with their login ids.
 */
export async function searchAudit(services: AuthServices, query: Record<string, unknown>) {
  const page = typeof query.page === 'string' && /^[1-9]\d{0,5}$/.test(query.page) ? Number(query.page) : 1;
  const size = typeof query.pageSize === 'string' && /^\d{1,3}$/.test(query.pageSize) ? Math.min(Math.max(Number(query.pageSize), 1), maxPageSize) : 20;
  const actor = text(query.actor);
  const action = text(query.action);
  const target = text(query.target);
  const targetType = text(query.targetType);
  const beneficiary = text(query.beneficiary);
  if (actor.length > 100 || target.length > 100) throw badRequest(messages.searchTooLong, undefined, 'QUERY_INVALID');
  if (beneficiary.length > 100) throw badRequest(messages.auditMemberInvalid, undefined, 'QUERY_INVALID');
  if (action !== '' && !actions.has(action)) throw badRequest(messages.auditActionInvalid, undefined, 'QUERY_INVALID');
  if (targetType !== '' && !targetTypes.has(targetType)) throw badRequest(messages.auditTargetInvalid, undefined, 'QUERY_INVALID');
  const from = bound(text(query.from), false);
  const to = bound(text(query.to), true);
  const empty = { items: [], page, pageSize: size, hasNext: false } satisfies AuditPageBody;
  if (from && to && from >= to) return empty;

  const filter: Record<string, unknown> = {};
  if (actor !== '') {
    const member = await services.members.model.findOne({ loginKey: loginKey(actor) }, { _id: 1 }).lean<Pick<MemberDoc, '_id'>>().exec();
    if (!member) return empty;
    filter.actorId = member._id;
  }
  if (beneficiary !== '') {
    const member = await services.members.model.findOne({ loginKey: loginKey(beneficiary) }, { _id: 1 }).lean<Pick<MemberDoc, '_id'>>().exec();
    if (!member) return empty;
    filter.beneficiaryId = member._id;
  }
  if (action !== '') filter.action = action;
  if (target !== '') filter.targetId = target;
  if (targetType !== '') filter.targetType = targetType;
  if (from || to) filter.at = { ...(from && { $gte: from }), ...(to && { $lt: to }) };

  const docs = await auditRecordModel(services.connection)
    .find(filter)
    .sort({ at: -1, _id: -1 })
    .skip((page - 1) * size)
    .limit(size + 1)
    .lean<AuditRecord[]>()
    .exec();
  const shown = docs.slice(0, size);
  const named = (t: string) => t === 'member' || t === 'operator';
  const people = [
    ...new Set(
      shown.flatMap((d) => [d.actorId, ...(named(d.targetType) ? [d.targetId] : []), ...(d.beneficiaryId ? [d.beneficiaryId] : []), ...membersIn(d.before), ...membersIn(d.after)]),
    ),
  ];
  const logins = new Map(
    (await services.members.model.find({ _id: { $in: people } }, { loginId: 1 }).lean<Array<Pick<MemberDoc, '_id' | 'loginId'>>>().exec()).map((m) => [m._id, m.loginId]),
  );
  return {
    items: shown.map((d) => ({
      id: d._id,
      at: d.at.toISOString(),
      actor: { userId: d.actorId, loginId: logins.get(d.actorId) ?? null, role: d.actorRole },
      service: d.service,
      action: d.action,
      target: { type: d.targetType, id: d.targetId, loginId: named(d.targetType) ? (logins.get(d.targetId) ?? null) : null },
      before: d.before,
      after: d.after,
      beneficiary: d.beneficiaryId ? { userId: d.beneficiaryId, loginId: logins.get(d.beneficiaryId) ?? null } : null,
      // Issue 41: a member named inside the change (a deposit's `userId`) is shown by login id, not by UUID.
      memberLogins: Object.fromEntries([...membersIn(d.before), ...membersIn(d.after)].flatMap((id) => (logins.has(id) ? [[id, logins.get(id)!]] : []))),
    })),
    page,
    pageSize: size,
    hasNext: docs.length > size,
  } satisfies AuditPageBody;
}

/** Member ids recorded inside a change (`userId` fields). */
function membersIn(fields: Record<string, unknown> | null | undefined): string[] {
  const value = fields?.userId;
  return typeof value === 'string' && /^[A-Za-z0-9-]{1,64}$/.test(value) ? [value] : [];
}
