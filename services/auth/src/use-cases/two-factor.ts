import { type EventOrigin, isOperatorRole } from '@smm/contracts';
import { HttpError, badRequest, inTransaction, recordOperatorAction } from '@smm/platform';
import { looksLikeRecoveryCode, newRecoveryCodes, normaliseRecoveryCode } from '../domain/recovery-codes.ts';
import { base32Encode, matchingStep, newTotpSecret, normaliseCode, otpauthUri } from '../domain/totp.ts';
import { messages } from '../messages.ts';
import type { Challenge } from '../security/two-factor-challenges.ts';
import type { MemberDoc } from '../store/member.model.ts';
import { type AuthServices, RetryLater } from './context.ts';
import { loadSettings } from './load-settings.ts';
import { type Session, issueSession, requireActive, versionOf } from './sessions.ts';

/** What a sign-in answers an operator who must pass a second factor first: no tokens yet. */
export type TwoFactorStep = { twoFactor: 'verify' | 'enrol'; challenge: string; expiresIn: number };

/**
 * After the password (or Naver/Kakao): a member gets a session; an operator with a second factor
 * gets a `verify` step, and one without it, while ENABLE_OPERATOR_TWO_FACTOR is on, an `enrol`
 * step — they reach the console only through it (issue 41).
 */
export async function sessionOrSecondFactor(services: AuthServices, member: MemberDoc): Promise<Session | TwoFactorStep> {
  requireActive(member);
  if (!isOperatorRole(member.role)) return issueSession(services, member);
  const purpose = member.twoFactor ? 'verify' : (await loadSettings(services)).operatorTwoFactor ? 'enrol' : null;
  if (purpose === null) return issueSession(services, member);
  const challenge = await services.twoFactorChallenges.open({ userId: member._id, version: versionOf(member), purpose });
  services.logger.info({ userId: member._id, purpose }, 'second factor asked');
  return { twoFactor: purpose, challenge, expiresIn: services.twoFactorChallenges.ttlSeconds };
}

const challengeInvalid = () => new HttpError(401, 'TWO_FACTOR_CHALLENGE_INVALID', messages.challengeInvalid);

/** The challenge and its operator, still as they were when it was opened (same token version, not disabled). */
async function openChallenge(services: AuthServices, token: unknown, purpose: Challenge['purpose']) {
  if (typeof token !== 'string') throw challengeInvalid();
  const challenge = await services.twoFactorChallenges.read(token);
  if (!challenge || challenge.purpose !== purpose) throw challengeInvalid();
  const member = await services.members.findById(challenge.userId);
  if (!member || versionOf(member) !== challenge.version || !isOperatorRole(member.role)) throw challengeInvalid();
  requireActive(member);
  return { token, challenge, member };
}

/** Counts an attempt against the operator's code limit before any code is compared. */
async function admitAttempt(services: AuthServices, userId: string): Promise<void> {
  const decision = await services.limits.twoFactorCodes.hit(userId);
  if (!decision.allowed) throw new RetryLater(messages.tooManyCodes, 'TOO_MANY_CODE_ATTEMPTS', decision.retryAfterSeconds);
}

/**
 * The step a code from the app is for, accepted once: the stored last step moves forward only if
 * this one is later, in one conditional write, so the same code (or an older one) presented again —
 * by the operator or by someone who watched it typed — is refused, even by two requests at once.
 */
async function acceptCode(services: AuthServices, member: MemberDoc, code: string): Promise<void> {
  if (!member.twoFactor) throw new HttpError(409, 'TWO_FACTOR_NOT_ENROLLED', messages.twoFactorNotEnrolled);
  const secret = services.secretBox.open(member.twoFactor.secret);
  const step = matchingStep(secret, normaliseCode(code), services.clock());
  if (step === null) throw badRequest(messages.codeInvalid, [{ field: 'code', message: messages.codeInvalid }], 'CODE_INVALID');
  const moved = await services.members.model.updateOne({ _id: member._id, 'twoFactor.lastStep': { $lt: step } }, { $set: { 'twoFactor.lastStep': step } }).exec();
  if (moved.modifiedCount !== 1) throw badRequest(messages.codeUsed, [{ field: 'code', message: messages.codeUsed }], 'CODE_ALREADY_USED');
}

/** A recovery code, spent: pulled from the stored list in one write, so it works exactly once. */
async function spendRecoveryCode(services: AuthServices, member: MemberDoc, code: string): Promise<void> {
  const refused = () => badRequest(messages.recoveryCodeInvalid, [{ field: 'recoveryCode', message: messages.recoveryCodeInvalid }], 'RECOVERY_CODE_INVALID');
  if (!looksLikeRecoveryCode(code)) throw refused();
  const hash = services.secretBox.recoveryHash(normaliseRecoveryCode(code));
  const spent = await services.members.model.updateOne({ _id: member._id, 'twoFactor.recoveryHashes': hash }, { $pull: { 'twoFactor.recoveryHashes': hash } }).exec();
  if (spent.modifiedCount !== 1) throw refused();
  services.logger.warn({ userId: member._id, left: (member.twoFactor?.recoveryHashes.length ?? 1) - 1 }, 'recovery code used');
}

/** `verify`: a code from the app or a recovery code → the session. */
export async function verifySecondFactor(services: AuthServices, input: { challenge?: unknown; code?: unknown; recoveryCode?: unknown }): Promise<Session> {
  const { token, member } = await openChallenge(services, input.challenge, 'verify');
  const code = typeof input.code === 'string' ? input.code.trim() : '';
  const recovery = typeof input.recoveryCode === 'string' ? input.recoveryCode.trim() : '';
  if (code === '' && recovery === '') throw badRequest(messages.codeRequired, [{ field: 'code', message: messages.codeRequired }], 'CODE_REQUIRED');
  await admitAttempt(services, member._id);
  if (recovery !== '') await spendRecoveryCode(services, member, recovery);
  else await acceptCode(services, member, code);
  // Two requests with two good codes: only the one that closes the challenge gets a session.
  if (!(await services.twoFactorChallenges.close(token))) throw challengeInvalid();
  // Only wrong codes count against the limit: an operator signing in often is not slowed.
  await services.limits.twoFactorCodes.forgive(member._id);
  services.logger.info({ userId: member._id, by: recovery !== '' ? 'recovery-code' : 'totp' }, 'second factor passed');
  return issueSession(services, member);
}

/** `enrol`, first half: a new secret for the app, kept sealed with the challenge until a code confirms it. */
export async function beginEnrolment(services: AuthServices, input: { challenge?: unknown }): Promise<{ secret: string; otpauthUri: string }> {
  const { token, challenge, member } = await openChallenge(services, input.challenge, 'enrol');
  if (member.twoFactor) throw new HttpError(409, 'TWO_FACTOR_ENROLLED', messages.alreadyEnrolled);
  const secret = newTotpSecret();
  await services.twoFactorChallenges.update(token, { ...challenge, pending: services.secretBox.seal(secret) });
  const text = base32Encode(secret);
  return { secret: text, otpauthUri: otpauthUri(services.siteName, member.loginId, text) };
}

/**
 * `enrol`, second half: the first code proves the app holds the secret; the second factor is
 * stored (sealed, with ten recovery codes' HMACs) and the session starts. The recovery codes are in
 * this answer only.
 */
export async function confirmEnrolment(
  services: AuthServices,
  input: { challenge?: unknown; code?: unknown },
  origin: EventOrigin,
): Promise<Session & { recoveryCodes: string[] }> {
  const { token, challenge, member } = await openChallenge(services, input.challenge, 'enrol');
  if (!challenge.pending) throw new HttpError(409, 'ENROLMENT_NOT_STARTED', messages.enrolmentNotStarted);
  const code = typeof input.code === 'string' ? normaliseCode(input.code.trim()) : '';
  if (code === '') throw badRequest(messages.codeRequired, [{ field: 'code', message: messages.codeRequired }], 'CODE_REQUIRED');
  await admitAttempt(services, member._id);
  const step = matchingStep(services.secretBox.open(challenge.pending), code, services.clock());
  if (step === null) throw badRequest(messages.codeInvalid, [{ field: 'code', message: messages.codeInvalid }], 'CODE_INVALID');
  const recoveryCodes = newRecoveryCodes();
  const twoFactor = {
    secret: challenge.pending,
    enabledAt: new Date(),
    lastStep: step,
    recoveryHashes: recoveryCodes.map((c) => services.secretBox.recoveryHash(normaliseRecoveryCode(c))),
  };
  const stored = await inTransaction(services.connection, async (session) => {
    const result = await services.members.model.updateOne({ _id: member._id, twoFactor: { $exists: false } }, { $set: { twoFactor } }, { session }).exec();
    if (result.modifiedCount !== 1) return false;
    const act = { caller: { userId: member._id, role: member.role }, action: 'auth.two-factor.enrol', target: { type: 'operator', id: member._id } } as const;
    await recordOperatorAction(services.connection, session, { ...act, before: { twoFactor: false }, after: { twoFactor: true } }, origin);
    return true;
  });
  if (!stored) throw new HttpError(409, 'TWO_FACTOR_ENROLLED', messages.alreadyEnrolled);
  services.kickOutbox();
  await services.twoFactorChallenges.close(token);
  await services.limits.twoFactorCodes.forgive(member._id);
  services.logger.info({ userId: member._id }, 'second factor enrolled');
  return { ...(await issueSession(services, member)), recoveryCodes };
}
