import { ChargeStatus, type EventOrigin, PointCredited, TopUpApproved, TopUpExpired, TopUpRejected, TopUpRequested, Topics, settingEnabled, settingKeys } from '@smm/contracts';
import type { EventEnvelope } from '@smm/contracts';
import { type ClientSession, type OperatorAction, appendToOutbox, inTransaction, recordOperatorAction } from '@smm/platform';
import { ledgerEntry, references } from '../domain/ledger.ts';
import { type Problem, messages, problem } from '../domain/messages.ts';
import { dutyProblem } from '../domain/duties.ts';
import { type TopUp, type TopUpDecision, cancelProblem, decideTopUp, duplicateWindowMs, requestLimitProblem, validateTopUp } from '../domain/top-up.ts';
import type { WalletDeps } from './context.ts';

export type RequestResult = { ok: true; created: boolean; topUp: TopUp } | { ok: false; problem: Problem };

/**
 * Records a top-up request and TopUpRequested (the scheduler expires it at `expiresAt`). An
 * identical request that is still pending and younger than a minute is answered instead of a new
 * one: the member's guard write serialises concurrent submits, so even simultaneous double clicks
 * create one request.
 */
export async function requestTopUp(deps: WalletDeps, userId: string, body: unknown, origin: EventOrigin): Promise<RequestResult> {
  const { store } = deps;
  const feeEnabled = settingEnabled(await store.settings.get(settingKeys.enablePaymentFee));
  const validated = validateTopUp(userId, body, feeEnabled);
  if (!validated.ok) return validated;
  const { draft } = validated;
  const limits = { openLimit: await store.settings.get(settingKeys.topUpOpenLimit), hourlyLimit: await store.settings.get(settingKeys.topUpHourlyLimit) };
  const result = await inTransaction(store.connection, async (session): Promise<{ created: boolean; topUp: TopUp } | { problem: Problem }> => {
    await store.topUps.lockMember(userId, session);
    const now = new Date();
    const earlier = await store.topUps.findPendingDuplicate(draft.fingerprint, new Date(now.getTime() - duplicateWindowMs), session);
    if (earlier) return { created: false, topUp: earlier };
    // Issue 39: the member's guard write above serialises their submits, so these counts hold.
    const refused = requestLimitProblem(await store.topUps.countsOf(userId, now, session), limits);
    if (refused) return { problem: refused };
    const id = await store.topUps.nextId(session);
    const topUp: TopUp = { ...draft, id, status: 0, createdAt: now, responseAt: null, expiresAt: new Date(now.getTime() + deps.topUpExpirySeconds * 1000) };
    await store.topUps.insert(topUp, session);
    const requested = TopUpRequested.create(
      `topup-${id}`,
      { topUpId: id, userId, pointDeci: topUp.pointDeci, transferDeci: topUp.transferDeci, receiptType: topUp.receiptType, expiresAt: topUp.expiresAt.toISOString() },
      origin,
      now,
    );
    await appendToOutbox(store.connection, session, Topics.wallet, [requested]);
    return { created: true, topUp };
  });
  if ('problem' in result) return { ok: false, problem: result.problem };
  if (result.created) deps.relay.kick();
  return { ok: true, ...result };
}

export type DecideResult = { ok: true; topUp: TopUp } | { ok: false; status: 403 | 404 | 409; problem: Problem };

/**
 * An operator's decision on a pending request. Approval credits the points (opening the account if
 * the member has none yet: the transfer has arrived) with its ledger entry, TopUpApproved and
 * PointCredited in the same transaction; rejection records TopUpRejected.
 */
export async function decideTopUpRequest(
  deps: WalletDeps,
  id: number,
  decision: Exclude<TopUpDecision, 'expire' | 'cancel'>,
  origin: EventOrigin,
  rejectReason: string | null = null,
  actor?: OperatorAction['caller'],
): Promise<DecideResult> {
  const staffLimit = actor ? await deps.store.settings.get(settingKeys.staffApprovalLimitWon) : undefined;
  const result = await inTransaction(deps.store.connection, async (session): Promise<DecideResult> => {
    if (actor) {
      // Issue 39: never for one's own account; staff approve only up to the admin's limit.
      const current = await deps.store.topUps.find(id, session);
      const refused = current && dutyProblem(actor, current.userId, decision === 'approve' ? current.pointDeci : null, staffLimit);
      if (refused) return { ok: false, status: 403, problem: refused };
    }
    const decided = await decideInSession(deps, id, decision, origin, session, rejectReason);
    if (decided.ok && actor) {
      const after = { status: decided.topUp.status, ...(rejectReason !== null && { reason: rejectReason }) };
      const act = { caller: actor, action: `wallet.topup.${decision}`, target: { type: 'topup', id: String(id) }, beneficiaryId: decided.topUp.userId } as const;
      await recordOperatorAction(deps.store.connection, session, { ...act, before: { status: ChargeStatus.values.PENDING }, after }, origin);
    }
    return decided;
  });
  if (result.ok) deps.relay.kick();
  return result;
}

/**
 * The decision inside a caller's transaction: a matched bank deposit approves its request in the
 * same transaction that records the deposit, so a deposit credits at most once.
 */
export async function decideInSession(
  deps: WalletDeps,
  id: number,
  decision: Exclude<TopUpDecision, 'expire' | 'cancel'>,
  origin: EventOrigin,
  session: ClientSession,
  rejectReason: string | null = null,
): Promise<DecideResult> {
  const { store } = deps;
  const current = await store.topUps.find(id, session);
  if (!current) return { ok: false, status: 404, problem: problem('TOPUP_NOT_FOUND', messages.topUpNotFound) };
  const decided = decideTopUp(current, decision);
  if (!decided.ok) return { ok: false, status: 409, problem: decided.problem };
  const now = new Date();
  const topUp = await store.topUps.settle(id, decided.status, now, session, decision === 'reject' ? rejectReason : null);
  if (!topUp) return { ok: false, status: 409, problem: problem('TOPUP_NOT_PENDING', messages.topUpNotPending) };
  const events: EventEnvelope[] = [];
  if (decision === 'approve') {
    const after = await store.accounts.credit(topUp.userId, topUp.pointDeci, now, session, true);
    if (!after) throw new Error(`credit of top-up ${id} opened no account`);
    const referenceId = references.topUp(id);
    await store.ledger.append(ledgerEntry(after, topUp.pointDeci, 'topup', referenceId, now), session);
    events.push(
      TopUpApproved.create(`topup-${id}`, { topUpId: id, userId: topUp.userId, pointDeci: topUp.pointDeci }, origin, now),
      PointCredited.create(
        `account-${topUp.userId}`,
        { userId: topUp.userId, source: 'topup', referenceId, amountDeci: topUp.pointDeci, balanceAfterDeci: after.balanceDeci },
        origin,
        now,
      ),
    );
  } else {
    events.push(TopUpRejected.create(`topup-${id}`, { topUpId: id, userId: topUp.userId }, origin, now));
  }
  await appendToOutbox(store.connection, session, Topics.wallet, events);
  return { ok: true, topUp };
}

export type ExpireOutcome = 'expired' | 'not-pending' | 'unknown';

/** The scheduler says a request's time is up: a pending one fails with TopUpExpired; anything else stays as it is. */
export async function expireTopUp(deps: WalletDeps, id: number, origin: EventOrigin, session: ClientSession): Promise<ExpireOutcome> {
  const { store } = deps;
  const current = await store.topUps.find(id, session);
  if (!current) return 'unknown';
  const decided = decideTopUp(current, 'expire');
  if (!decided.ok) return 'not-pending';
  const now = new Date();
  const topUp = await store.topUps.settle(id, decided.status, now, session, null, true);
  if (!topUp) return 'not-pending';
  await appendToOutbox(store.connection, session, Topics.wallet, [TopUpExpired.create(`topup-${id}`, { topUpId: id, userId: topUp.userId }, origin, now)]);
  return 'expired';
}

export type CancelResult = { ok: true; topUp: TopUp } | { ok: false; status: 404 | 409; problem: Problem };

/**
 * The member withdraws their own pending request (issue 40): it fails (status 2) marked `canceled`,
 * with TopUpRejected (`canceledByMember`) so the scheduler drops its expiry. Taken under the member's
 * guard write, so it serialises with their new requests; the settle's guard (still pending) decides
 * a race with an operator's approval or a matched deposit: whichever commits first wins, and a
 * deposit that arrives for a cancelled request waits for operators among the unmatched ones. It
 * counts toward the decoy hold like an unpaid expiry (domain/top-up.ts).
 */
export async function cancelTopUp(deps: WalletDeps, userId: string, id: number, origin: EventOrigin): Promise<CancelResult> {
  const { store } = deps;
  const result = await inTransaction(store.connection, async (session): Promise<CancelResult> => {
    await store.topUps.lockMember(userId, session);
    const refused = cancelProblem(await store.topUps.find(id, session), userId);
    if (refused) return { ok: false, ...refused };
    const topUp = await store.topUps.settle(id, ChargeStatus.values.FAIL, new Date(), session, null, false, true);
    if (!topUp) return { ok: false, status: 409, problem: problem('TOPUP_NOT_PENDING', messages.topUpNotPending) };
    await appendToOutbox(store.connection, session, Topics.wallet, [TopUpRejected.create(`topup-${id}`, { topUpId: id, userId, canceledByMember: true }, origin, topUp.responseAt ?? new Date())]);
    return { ok: true, topUp };
  });
  if (result.ok) deps.relay.kick();
  return result;
}
