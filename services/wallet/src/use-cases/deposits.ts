import { randomUUID } from 'node:crypto';
import { type EventOrigin, paymentTypeOf, settingKeys } from '@smm/contracts';
import { type OperatorAction, auditDiff, auditFields, inTransaction, recordOperatorAction } from '@smm/platform';
import { type Deposit, type DepositInput, fittingRequests } from '../domain/deposit.ts';
import { dutyProblem } from '../domain/duties.ts';
import { type Problem, messages, problem } from '../domain/messages.ts';
import type { TopUp } from '../domain/top-up.ts';
import { pendingWithTransfer } from '../store/deposit.model.ts';
import type { WalletDeps } from './context.ts';
import { decideInSession } from './top-ups.ts';

/** What the audit log keeps of a deposit. */
const depositFields = ['depositorName', 'amountDeci', 'status', 'topUpId', 'userId'] as const;

export type RecordResult = { created: boolean; deposit: Deposit } | { refused: Problem };

/**
 * Records a deposit and, when exactly one pending request fits it, approves that request in the
 * same transaction. The record's id is the bank's transaction id: a repeated notification finds
 * the first record and changes nothing (a concurrent one conflicts, is retried and finds it too).
 */
export async function recordDeposit(
  deps: WalletDeps,
  source: 'bank' | 'manual',
  input: DepositInput,
  origin: EventOrigin,
  operator: string | null,
  actor?: OperatorAction['caller'],
): Promise<RecordResult> {
  const { store } = deps;
  const id = source === 'bank' ? `bank:${input.transactionId}` : `manual:${randomUUID()}`;
  const staffLimit = actor ? await store.settings.get(settingKeys.staffApprovalLimitWon) : undefined;
  const result = await inTransaction(store.connection, async (session): Promise<RecordResult> => {
    const earlier = await store.deposits.find(id, session);
    if (earlier) return { created: false, deposit: earlier };
    const fitting = fittingRequests(input, await pendingWithTransfer(store.topUps, input.amountDeci, session));
    // Issue 39: an operator's hand entry that would approve a request is that operator's approval.
    const refused = actor && fitting.length === 1 ? dutyProblem(actor, fitting[0]!.userId, fitting[0]!.pointDeci, staffLimit) : null;
    if (refused) return { refused };
    const now = new Date();
    let deposit: Deposit = {
      id,
      source,
      transactionId: source === 'bank' ? input.transactionId : id,
      depositorName: input.depositorName,
      amountDeci: input.amountDeci,
      depositedAt: input.depositedAt,
      receivedAt: now,
      status: fitting.length === 0 ? 'unmatched' : 'ambiguous',
      topUpId: null,
      userId: null,
      candidates: fitting.map((t) => t.id),
      resolvedBy: operator,
      resolvedAt: null,
    };
    if (fitting.length === 1) {
      const approved = await decideInSession(deps, fitting[0]!.id, 'approve', origin, session);
      if (!approved.ok) throw new Error(`matched top-up ${fitting[0]!.id} could not be approved: ${approved.problem.code}`);
      deposit = { ...deposit, status: 'matched', topUpId: approved.topUp.id, userId: approved.topUp.userId, resolvedAt: now };
    }
    await store.deposits.insert(deposit, session);
    if (actor) {
      const act = { caller: actor, action: 'wallet.deposit.enter', target: { type: 'deposit', id }, beneficiaryId: deposit.userId } as const;
      await recordOperatorAction(store.connection, session, { ...act, before: null, after: auditFields(deposit, depositFields) }, origin);
    }
    return { created: true, deposit };
  }).catch(async (error: unknown) => {
    // Two notifications of one transaction at once: the loser's insert hits the unique id.
    const earlier = isDuplicateKey(error) ? await store.deposits.find(id) : null;
    if (!earlier) throw error;
    return { created: false, deposit: earlier };
  });
  if ('created' in result && result.created && (result.deposit.status === 'matched' || actor)) deps.relay.kick();
  return result;
}

const isDuplicateKey = (error: unknown): boolean => typeof error === 'object' && error !== null && (error as { code?: unknown }).code === 11000;

export type AttachTarget = { topUpId: number } | { userId: string };
export type AttachResult = { ok: true; deposit: Deposit } | { ok: false; status: 403 | 404 | 409; problem: Problem };

/**
 * An operator attaches an open deposit to a pending request (same transfer amount) or to a member.
 * For a member the deposit becomes an approved top-up of exactly its amount, so every credit is a
 * top-up with its ledger entry; the deposit leaves the queue in the same transaction.
 */
export async function attachDeposit(
  deps: WalletDeps,
  id: string,
  target: AttachTarget,
  origin: EventOrigin,
  operator: string,
  actor?: OperatorAction['caller'],
): Promise<AttachResult> {
  const { store } = deps;
  const staffLimit = actor ? await store.settings.get(settingKeys.staffApprovalLimitWon) : undefined;
  const result = await inTransaction(store.connection, async (session): Promise<AttachResult> => {
    const deposit = await store.deposits.find(id, session);
    if (!deposit) return { ok: false, status: 404, problem: problem('DEPOSIT_NOT_FOUND', messages.depositNotFound) };
    if (deposit.status !== 'unmatched' && deposit.status !== 'ambiguous') return { ok: false, status: 409, problem: problem('DEPOSIT_RESOLVED', messages.depositResolved) };
    let topUpId: number;
    if ('topUpId' in target) {
      const request = await store.topUps.find(target.topUpId, session);
      if (!request) return { ok: false, status: 404, problem: problem('TOPUP_NOT_FOUND', messages.topUpNotFound) };
      if (request.transferDeci !== deposit.amountDeci) return { ok: false, status: 409, problem: problem('DEPOSIT_AMOUNT_MISMATCH', messages.depositAmountMismatch) };
      const refused = actor ? dutyProblem(actor, request.userId, request.pointDeci, staffLimit) : null;
      if (refused) return { ok: false, status: 403, problem: refused };
      topUpId = request.id;
    } else {
      const refused = actor ? dutyProblem(actor, target.userId, deposit.amountDeci, staffLimit) : null;
      if (refused) return { ok: false, status: 403, problem: refused };
      topUpId = await store.topUps.nextId(session);
      const now = new Date();
      const topUp: TopUp = {
        id: topUpId,
        userId: target.userId,
        name: deposit.depositorName,
        pointDeci: deposit.amountDeci,
        transferDeci: deposit.amountDeci,
        receiptType: 'none',
        paymentType: paymentTypeOf('none'),
        feeValue: {},
        fingerprint: `deposit:${deposit.id}`,
        status: 0,
        createdAt: now,
        responseAt: null,
        expiresAt: now,
      };
      await store.topUps.insert(topUp, session);
    }
    const approved = await decideInSession(deps, topUpId, 'approve', origin, session);
    if (!approved.ok) return approved;
    const resolved = await store.deposits.resolve(id, { topUpId, userId: approved.topUp.userId, resolvedBy: operator }, new Date(), session);
    if (!resolved) throw new Error(`deposit ${id} was resolved concurrently`);
    if (actor) {
      const act = { caller: actor, action: 'wallet.deposit.attach', target: { type: 'deposit', id }, beneficiaryId: resolved.userId } as const;
      await recordOperatorAction(store.connection, session, { ...act, ...auditDiff(deposit, resolved, depositFields) }, origin);
    }
    return { ok: true, deposit: resolved };
  });
  if (result.ok) deps.relay.kick();
  return result;
}
