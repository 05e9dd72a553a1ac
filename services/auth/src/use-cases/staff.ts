import { randomBytes, randomUUID } from 'node:crypto';
import type { ClientSession } from 'mongoose';
import { type AuditAction, type EventOrigin, Topics, UserRegistered, isOperatorRole } from '@smm/contracts';
import { HttpError, appendToOutbox, conflict, forbidden, inTransaction, notFound, recordOperatorAction } from '@smm/platform';
import { loginKey } from '../domain/login-rules.ts';
import { areasOf, checkOperatorAccess, checkOperatorLoginId } from '../domain/operator-rules.ts';
import { restrictionInForce } from '../domain/restriction-rules.ts';
import { messages } from '../messages.ts';
import type { MemberDoc } from '../store/member.model.ts';
import { duplicateMemberField } from '../store/member.model.ts';
import { type AuthServices, ruleError } from './context.ts';
import { loadSettings } from './load-settings.ts';

/** One operator as the console's staff screen shows them (never a secret: `twoFactor` only says whether one is set). */
export function operatorRow(member: MemberDoc) {
  return {
    userId: member._id,
    loginId: member.loginId,
    role: member.role as 'staff' | 'admin',
    areas: areasOf(member),
    disabled: Boolean(member.disabledAt),
    twoFactor: Boolean(member.twoFactor),
    createdAt: member.createdAt.toISOString(),
  };
}

export async function listOperators(services: AuthServices) {
  const docs = await services.members.model.find({ role: { $in: ['staff', 'admin'] } }).sort({ createdAt: 1 }).limit(500).lean<MemberDoc[]>().exec();
  return { items: docs.map(operatorRow), twoFactorRequired: (await loadSettings(services)).operatorTwoFactor };
}

/** No operator changes their own role, areas, account or second factor (issue 39's SELF_ACTION). */
function refuseSelf(admin: MemberDoc, userId: string): void {
  if (admin._id === userId) throw forbidden(messages.operatorSelf, 'SELF_ACTION');
}

/**
 * Every change of an operator runs in a transaction that first writes one shared document, so two
 * such changes never commit side by side: two admins demoting each other at the same moment would
 * otherwise each see the other still an admin and leave none.
 */
async function operatorChange<T>(services: AuthServices, work: (session: ClientSession) => Promise<T>): Promise<T> {
  const result = await inTransaction(services.connection, async (session) => {
    await services.connection.collection('operator_changes').updateOne({ _id: 'serial' as never }, { $inc: { n: 1 } }, { upsert: true, session });
    return work(session);
  });
  services.kickOutbox();
  return result;
}

async function operatorIn(services: AuthServices, userId: string, session: ClientSession): Promise<MemberDoc> {
  const target = await services.members.findById(userId, session);
  if (!target || !isOperatorRole(target.role)) throw notFound(messages.operatorNotFound, 'OPERATOR_NOT_FOUND');
  return target;
}

/** Refuses a change that would leave no active admin (checked inside the change's transaction). */
async function keepOneAdmin(services: AuthServices, session: ClientSession): Promise<void> {
  const left = await services.members.model.countDocuments({ role: 'admin', disabledAt: { $exists: false } }).session(session).exec();
  if (left === 0) throw conflict(messages.lastAdmin, 'LAST_ADMIN');
}

const audit = (services: AuthServices, session: ClientSession, admin: MemberDoc, action: AuditAction, id: string, before: Record<string, unknown> | null, after: Record<string, unknown>, origin: EventOrigin) =>
  recordOperatorAction(services.connection, session, { caller: { userId: admin._id, role: admin.role }, action, target: { type: 'operator', id }, before, after }, origin);

/** A temporary password shown once to the admin who made the account (16 characters, no spaces). */
const initialPassword = () => randomBytes(12).toString('base64url');

/**
 * An admin adds an operator: a new account with a temporary password shown once, or — when the id
 * is an existing member's — that member made one (their member sessions end: they sign in again as
 * an operator, through the second factor when it is required).
 */
export async function createOperator(services: AuthServices, admin: MemberDoc, body: { loginId?: unknown; role?: unknown; areas?: unknown }, origin: EventOrigin) {
  const id = checkOperatorLoginId(body.loginId);
  if (!id.ok) throw ruleError(id.violation);
  const access = checkOperatorAccess(body, false);
  if (!access.ok) throw ruleError(access.violation);
  const { role, areas } = access.value;
  const key = loginKey(id.value);
  const existing = await services.members.findByLoginKey(key);
  if (existing) {
    if (isOperatorRole(existing.role)) throw conflict(messages.operatorExists, 'OPERATOR_EXISTS');
    if (restrictionInForce(existing, new Date())) throw conflict(messages.operatorRestricted, 'OPERATOR_RESTRICTED');
    const promoted = await operatorChange(services, async (session) => {
      const set = role === 'staff' ? { role, areas } : { role };
      const doc = await services.members.model
        .findOneAndUpdate({ _id: existing._id, role: 'member' }, { $set: set, $inc: { tokenVersion: 1 } }, { session, new: true })
        .lean<MemberDoc>()
        .exec();
      if (!doc) throw conflict(messages.operatorExists, 'OPERATOR_EXISTS');
      await audit(services, session, admin, 'auth.operator.create', doc._id, { role: 'member' }, { role, areas: areasOf(doc) }, origin);
      return doc;
    });
    services.logger.info({ userId: promoted._id, role, operator: admin._id }, 'member made an operator');
    return { ...operatorRow(promoted), initialPassword: null };
  }
  const password = initialPassword();
  const member: MemberDoc = {
    _id: randomUUID(),
    loginId: id.value,
    loginKey: key,
    passwordHash: await services.passwords.hash(password),
    role,
    provider: 'local',
    createdAt: new Date(),
    ...(role === 'staff' && { areas }),
  };
  try {
    await operatorChange(services, async (session) => {
      await services.members.insert(member, session);
      const registered = UserRegistered.create(
        member._id,
        { userId: member._id, loginId: member.loginId, email: null, role, provider: 'local', registerWhere: null, referredBy: null },
        origin,
      );
      await appendToOutbox(services.connection, session, Topics.auth, [registered]);
      await audit(services, session, admin, 'auth.operator.create', member._id, null, { loginId: member.loginId, role, areas: areasOf(member) }, origin);
    });
  } catch (error) {
    if (duplicateMemberField(error) === 'loginKey') throw conflict(messages.duplicateId, 'DUPLICATE_ID');
    throw error;
  }
  services.logger.info({ userId: member._id, role, operator: admin._id }, 'operator account created');
  return { ...operatorRow(member), initialPassword: password };
}

/**
 * An admin sets another operator's role (staff, admin, or back to member) and a staff member's
 * areas. A role change ends the account's sessions (its tokens name the old role); an areas change
 * takes effect on the next request the BFF checks.
 */
export async function changeOperatorAccess(services: AuthServices, admin: MemberDoc, userId: string, body: { role?: unknown; areas?: unknown }, origin: EventOrigin) {
  refuseSelf(admin, userId);
  const access = checkOperatorAccess(body, true);
  if (!access.ok) throw ruleError(access.violation);
  const { role, areas } = access.value;
  const changed = await operatorChange(services, async (session) => {
    const target = await operatorIn(services, userId, session);
    const before = { role: target.role, areas: areasOf(target) };
    const after = { role, areas: role === 'staff' ? areas : role === 'admin' ? areasOf({ role }) : [] };
    if (before.role === after.role && before.areas.join() === after.areas.join()) return target;
    const update =
      role === 'staff'
        ? { $set: { role, areas }, ...(target.role !== role && { $inc: { tokenVersion: 1 } }) }
        : { $set: { role }, $unset: { areas: 1 }, $inc: { tokenVersion: 1 } };
    const doc = await services.members.model.findOneAndUpdate({ _id: userId }, update, { session, new: true }).lean<MemberDoc>().exec();
    if (target.role === 'admin' && role !== 'admin') await keepOneAdmin(services, session);
    await audit(services, session, admin, 'auth.operator.access', userId, before, after, origin);
    return doc!;
  });
  services.logger.info({ userId, role, operator: admin._id }, 'operator access changed');
  return isOperatorRole(changed.role) ? operatorRow(changed) : { userId, loginId: changed.loginId, role: changed.role, areas: [], disabled: false, twoFactor: Boolean(changed.twoFactor), createdAt: changed.createdAt.toISOString() };
}

/** Disables (or enables again) an operator account: disabled, it cannot sign in and every session ends at once. */
export async function setOperatorDisabled(services: AuthServices, admin: MemberDoc, userId: string, disabled: boolean, origin: EventOrigin) {
  refuseSelf(admin, userId);
  const doc = await operatorChange(services, async (session) => {
    const target = await operatorIn(services, userId, session);
    if (Boolean(target.disabledAt) === disabled) {
      throw new HttpError(409, disabled ? 'OPERATOR_DISABLED_ALREADY' : 'OPERATOR_NOT_DISABLED', disabled ? messages.operatorAlreadyDisabled : messages.operatorNotDisabled);
    }
    const update = disabled ? { $set: { disabledAt: new Date() }, $inc: { tokenVersion: 1 } } : { $unset: { disabledAt: 1 } };
    const updated = await services.members.model.findOneAndUpdate({ _id: userId }, update, { session, new: true }).lean<MemberDoc>().exec();
    if (disabled && target.role === 'admin') await keepOneAdmin(services, session);
    await audit(services, session, admin, disabled ? 'auth.operator.disable' : 'auth.operator.enable', userId, { disabled: !disabled }, { disabled }, origin);
    return updated!;
  });
  if (disabled) services.logger.warn({ userId, operator: admin._id }, 'operator disabled: sessions ended');
  return operatorRow(doc);
}

/** An operator who lost their phone: the second factor is removed (they enrol again at sign-in when required) and their sessions end. */
export async function resetOperatorTwoFactor(services: AuthServices, admin: MemberDoc, userId: string, origin: EventOrigin) {
  refuseSelf(admin, userId);
  const doc = await operatorChange(services, async (session) => {
    const target = await operatorIn(services, userId, session);
    if (!target.twoFactor) throw new HttpError(409, 'TWO_FACTOR_NOT_ENROLLED', messages.twoFactorNotEnrolled);
    const updated = await services.members.model
      .findOneAndUpdate({ _id: userId }, { $unset: { twoFactor: 1 }, $inc: { tokenVersion: 1 } }, { session, new: true })
      .lean<MemberDoc>()
      .exec();
    await audit(services, session, admin, 'auth.operator.two-factor-reset', userId, { twoFactor: true }, { twoFactor: false }, origin);
    return updated!;
  });
  return operatorRow(doc);
}
