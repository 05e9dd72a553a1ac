import type { AdminMemberDetailBody, AdminMemberListBody } from '@smm/contracts/http';
import { badRequest, notFound } from '@smm/platform';
import { loginKey } from '../domain/login-rules.ts';
import { restrictionInForce } from '../domain/restriction-rules.ts';
import { messages } from '../messages.ts';
import type { MemberDoc } from '../store/member.model.ts';
import { restrictionHistory } from './change-restriction.ts';
import type { AuthServices } from './context.ts';

/** A prefix as an index range (`[p, p + U+FFFF)`): every engine serves it from the index, unlike a regex. */
const startsWith = (prefix: string) => ({ $gte: prefix, $lt: `${prefix}\uffff` });
const maxPageSize = 100;
const projection = { loginId: 1, email: 1, phoneNumber: 1, role: 1, provider: 1, createdAt: 1, restriction: 1, status: 1 };
const row = (m: MemberDoc) => ({
  userId: m._id,
  loginId: m.loginId,
  email: m.email ?? null,
  phoneNumber: m.phoneNumber ?? null,
  role: m.role,
  provider: m.provider,
  createdAt: m.createdAt.toISOString(),
  /** The level in force, for the list's badge. */
  restrictionLevel: restrictionInForce(m, new Date())?.level ?? null,
});

/**
 * Operators find members by a login id, an e-mail address or a phone number, or the start of one
 * (issue 12): an exact value is one lookup on its unique index, a prefix is an index range sorted
 * by that key (on a real MongoDB; the embedded one scans ranges); no query lists the newest first.
 */
export async function searchMembers(services: AuthServices, query: Record<string, unknown>) {
  const q = typeof query.q === 'string' ? query.q.trim() : '';
  const page = typeof query.page === 'string' && /^[1-9]\d{0,5}$/.test(query.page) ? Number(query.page) : 1;
  const size = typeof query.pageSize === 'string' && /^\d{1,3}$/.test(query.pageSize) ? Math.min(Math.max(Number(query.pageSize), 1), maxPageSize) : 20;
  if (q.length > 100) throw badRequest(messages.searchTooLong, undefined, 'QUERY_INVALID');
  let key: 'emailKey' | 'phoneNumber' | 'loginKey' | null = null;
  let value = '';
  const digits = q.replace(/-/g, '');
  if (q.includes('@')) [key, value] = ['emailKey', q.toLowerCase()];
  else if (/^\d{3,11}$/.test(digits)) [key, value] = ['phoneNumber', digits];
  else if (q !== '') [key, value] = ['loginKey', loginKey(q)];
  // A whole login id, e-mail or phone number is one equality lookup on its unique index (the
  // embedded MongoDB serves only equality from indexes); otherwise the prefix range.
  if (key !== null && page === 1) {
    const exact = await services.members.model.findOne({ [key]: value }, projection).lean<MemberDoc>().exec();
    if (exact) return { items: [row(exact)], page, pageSize: size, hasNext: false } satisfies AdminMemberListBody;
  }
  const filter: Record<string, unknown> = key === null ? {} : { [key]: startsWith(value) };
  const sort: Record<string, 1 | -1> = key === null ? { createdAt: -1 } : { [key]: 1 };
  const docs = await services.members.model
    .find(filter, projection)
    .sort(sort)
    .skip((page - 1) * size)
    .limit(size + 1)
    .lean<MemberDoc[]>()
    .exec();
  return {
    items: docs.slice(0, size).map(row),
    page,
    pageSize: size,
    hasNext: docs.length > size,
  } satisfies AdminMemberListBody;
}

/** One member for the console's member page (never a secret: the API key only by its prefix). */
export async function memberDetail(services: AuthServices, userId: string) {
  const m = await services.members.findById(userId);
  if (!m) throw notFound(messages.memberNotFound, 'MEMBER_NOT_FOUND');
  return {
    userId: m._id,
    loginId: m.loginId,
    email: m.email ?? null,
    phoneNumber: m.phoneNumber ?? null,
    role: m.role,
    provider: m.provider,
    registerWhere: m.registerWhere ?? null,
    referralCode: m.referralCode ?? null,
    referredBy: m.referredBy ?? null,
    apiKeyPrefix: m.apiKeyPrefix ?? null,
    apiKeyIssuedAt: m.apiKeyIssuedAt?.toISOString() ?? null,
    createdAt: m.createdAt.toISOString(),
    restriction: restrictionInForce(m, new Date()),
    restrictionHistory: await restrictionHistory(services, m._id),
  } satisfies AdminMemberDetailBody;
}
