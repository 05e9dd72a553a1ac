import { type EventOrigin, type MemberRate, deciToWon } from '@smm/contracts';
import type { MemberRateListBody } from '@smm/contracts/http';
import { type OperatorAction, recordOperatorAction } from '@smm/platform';
import { readRate, type RateRequest } from '../domain/member-rate-rules.ts';
import { type Problem, problem } from '../domain/problem.ts';
import { rateMessages } from '../domain/rate-messages.ts';
import { type MemberRateDoc, rateIdOf } from '../store/member-rates.ts';
import { type OrderDeps, commit } from './context.ts';

type Caller = OperatorAction['caller'];
export type RateChangeResult = { ok: true; list: MemberRateListBody } | { ok: false; kind: 'forbidden' | 'invalid' | 'not-found'; problem: Problem };

/** The fields an audit record keeps of a rate: its scope and its value. */
const audited = (rate: MemberRate | null) => (rate === null ? null : { serviceId: rate.serviceId, discountPercent: rate.discountPercent, unitPriceDeci: rate.unitPriceDeci });

/**
 * Who may change a member's rates: an admin, never for their own account. A rate lowers what a
 * member pays, so it is a money decision like a balance adjustment (admin only, issue 12) and an
 * operator's rate for themselves is the self-service issue 39 forbids (SELF_ACTION).
 */
function refusalFor(caller: Caller, userId: string): RateChangeResult | null {
  if (caller.role !== 'admin') return { ok: false, kind: 'forbidden', problem: problem('RATE_ADMIN_ONLY', rateMessages.adminOnly) };
  if (caller.userId === userId) return { ok: false, kind: 'forbidden', problem: problem('SELF_ACTION', rateMessages.selfAction) };
  return null;
}

/** A member's rates as screens show them, with the products' names from the replica. */
export async function listRates(deps: Pick<OrderDeps, 'store'>, userId: string): Promise<MemberRateListBody> {
  const docs = await deps.store.rates.list(userId);
  const names = await Promise.all(docs.map((d) => (d.serviceId === null ? null : deps.store.product(d.serviceId))));
  return {
    userId,
    items: docs.map((d, i) => ({
      serviceId: d.serviceId,
      serviceText: names[i]?.text ?? null,
      discountPercent: d.discountPercent,
      unitPriceDeci: d.unitPriceDeci,
      unitPrice: d.unitPriceDeci === null ? null : deciToWon(d.unitPriceDeci),
      updatedAt: d.updatedAt.toISOString(),
      updatedBy: d.updatedBy,
    })),
  };
}

/**
 * Sets (or replaces) one rate of a member, with its audit record (before → after, the member as
 * beneficiary) in the same transaction. The product must be in the catalogue replica.
 */
export async function setRate(deps: OrderDeps, origin: EventOrigin, caller: Caller, userId: string, request: RateRequest): Promise<RateChangeResult> {
  const refusal = refusalFor(caller, userId);
  if (refusal) return refusal;
  const verdict = readRate(request);
  if (!verdict.ok) return { ok: false, kind: 'invalid', problem: verdict.problem };
  const { rate } = verdict;
  if (rate.serviceId !== null && !(await deps.store.product(rate.serviceId))) return { ok: false, kind: 'invalid', problem: problem('RATE_SERVICE_UNKNOWN', rateMessages.serviceUnknown) };
  const doc: MemberRateDoc = { _id: rateIdOf(userId, rate.serviceId), userId, ...rate, updatedAt: new Date(), updatedBy: caller.userId ?? '' };
  await commit(deps, async (session) => {
    const before = await deps.store.rates.find(userId, rate.serviceId, session);
    await deps.store.rates.save(doc, session);
    await recordOperatorAction(deps.store.connection, session, { caller, action: 'order.rate.set', target: { type: 'member', id: userId }, before: audited(before), after: audited(rate), beneficiaryId: userId }, origin);
  });
  deps.store.rates.forget(userId);
  deps.logger.info({ userId, rate, by: caller.userId, correlationId: origin.correlationId }, 'member rate set');
  return { ok: true, list: await listRates(deps, userId) };
}

/** Removes one rate (`serviceId` null: the rate for every product); the member pays the catalogue's price again. */
export async function removeRate(deps: OrderDeps, origin: EventOrigin, caller: Caller, userId: string, serviceId: number | null): Promise<RateChangeResult> {
  const refusal = refusalFor(caller, userId);
  if (refusal) return refusal;
  const removed = await commit(deps, async (session) => {
    const before = await deps.store.rates.find(userId, serviceId, session);
    if (!before || !(await deps.store.rates.remove(userId, serviceId, session))) return false;
    await recordOperatorAction(deps.store.connection, session, { caller, action: 'order.rate.delete', target: { type: 'member', id: userId }, before: audited(before), after: null, beneficiaryId: userId }, origin);
    return true;
  });
  if (!removed) return { ok: false, kind: 'not-found', problem: problem('RATE_NOT_FOUND', rateMessages.notFound) };
  deps.store.rates.forget(userId);
  deps.logger.info({ userId, serviceId, by: caller.userId, correlationId: origin.correlationId }, 'member rate removed');
  return { ok: true, list: await listRates(deps, userId) };
}
