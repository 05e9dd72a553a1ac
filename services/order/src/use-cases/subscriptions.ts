import { randomUUID } from 'node:crypto';
import { AutoOrderStatus, type EventOrigin, isAcceptableLink } from '@smm/contracts';
import { type OperatorAction, recordOperatorAction } from '@smm/platform';
import { messages } from '../domain/messages.ts';
import { type Problem, problem } from '../domain/problem.ts';
import { type SubscriptionFacts, endSubscription, pauseOrResume, recordPost } from '../domain/subscription.ts';
import { autoOrderCanceled, autoOrderCompleted, autoOrderRunPlaced, refundRequested } from '../events/order-events.ts';
import { type AutoOrder, runOrderOf } from '../store/models.ts';
import { type Emit, type OrderDeps, commit } from './context.ts';
import { type AutoOrderView, type OrderView, autoOrderView, orderView } from './views.ts';
import type { ClientSession } from 'mongoose';

/** Who acts: an operator (admin or staff, audited), fulfillment's credential (admin), or the member (cancel only, through fulfillment). */
export type SubscriptionActor = OperatorAction['caller'];

export type SubscriptionResult<T> = { ok: true; value: T } | { ok: false; kind: 'not-found' | 'conflict' | 'invalid' | 'forbidden'; problem: Problem };

const fail = <T>(kind: 'not-found' | 'conflict' | 'invalid' | 'forbidden', code: string, message: string): SubscriptionResult<T> => ({ ok: false, kind, problem: problem(code, message) });

function factsOf(auto: AutoOrder): SubscriptionFacts {
  const sub = auto.subscription!;
  return { status: auto.status, state: sub.state, posts: auto.runs, completed: auto.completed, chargeDeci: auto.chargeDeci, perRunDeci: auto.perRunDeci, refundedDeci: auto.refundedDeci, expiry: sub.expiry };
}

/** The guard every write is conditioned on: the state the decision was made on. */
const guardOf = (auto: AutoOrder) => ({ status: auto.status, completed: auto.completed, 'subscription.state': auto.subscription!.state });

async function subscriptionOf(deps: OrderDeps, id: number, session: ClientSession): Promise<AutoOrder | null> {
  const auto = await deps.store.repository.autoOrder(id, session);
  return auto?.subscription && auto.payment === 'paid' ? auto : null;
}

async function audit(deps: OrderDeps, session: ClientSession, origin: EventOrigin, actor: SubscriptionActor, action: OperatorAction['action'], auto: AutoOrder, after: Record<string, unknown>, money: boolean): Promise<void> {
  const before = { state: auto.subscription!.state, postsDone: auto.completed, refundedDeci: auto.refundedDeci };
  await recordOperatorAction(deps.store.connection, session, { caller: actor, action, target: { type: 'order', id: String(auto._id) }, before, after: { ...before, ...after }, ...(money ? { beneficiaryId: auto.userId } : {}) }, origin);
}

/**
 * Ends a subscription inside the caller's transaction: the posts not done go back once
 * (RefundRequested `auto-<id>-expired` / `auto-<id>-canceled`, reason `subscription-ended`), with
 * AutoOrderCanceled naming how it ended. The write is guarded by the state decided on.
 */
async function endIn(deps: OrderDeps, session: ClientSession, emit: Emit, origin: EventOrigin, auto: AutoOrder, to: 'expired' | 'canceled', now: Date): Promise<SubscriptionResult<{ auto: AutoOrder; refundDeci: number }>> {
  const verdict = endSubscription(factsOf(auto), to);
  if (!verdict.ok) return { ok: false, kind: 'conflict', problem: verdict.problem };
  const set = { status: verdict.statusAfter, refundedDeci: auto.refundedDeci + verdict.refundDeci, canceledAt: now, 'subscription.state': verdict.stateAfter, 'subscription.endedAt': now };
  await deps.store.repository.update('auto', auto._id, guardOf(auto), set, session);
  emit(autoOrderCanceled({ autoOrderId: auto._id, userId: auto.userId, runsDone: verdict.postsDone, runs: auto.runs, refundDeci: verdict.refundDeci, ended: to }, origin));
  if (verdict.refundDeci > 0) emit(refundRequested({ refundId: `auto-${auto._id}-${to}`, userId: auto.userId, orderId: auto._id, amountDeci: verdict.refundDeci, reason: 'subscription-ended' }, origin));
  const ended: AutoOrder = { ...auto, status: verdict.statusAfter, refundedDeci: set.refundedDeci, canceledAt: now, subscription: { ...auto.subscription!, state: verdict.stateAfter, endedAt: now } };
  return { ok: true, value: { auto: ended, refundDeci: verdict.refundDeci } };
}

/**
 * A new post of the subscribed profile: the next post becomes a paid child order for the max per
 * post (charged nothing more: its share, unit price × max, was paid up front), announced as
 * AutoOrderRunPlaced (`subscription: true`) so the wallet can prove its refunds and fulfillment
 * follows it; after the last post AutoOrderCompleted. `link` is the post's address (else the profile).
 * Past the expiry the post is refused and the subscription expires (its refund) in the same step.
 */
export async function recordSubscriptionPost(
  deps: OrderDeps,
  origin: EventOrigin,
  id: number,
  input: { post?: number | undefined; link?: string | undefined },
  actor: SubscriptionActor,
): Promise<SubscriptionResult<{ subscription: AutoOrderView; order: OrderView }>> {
  if (input.link !== undefined && !(input.link.startsWith('https://') && isAcceptableLink(input.link))) return fail('invalid', 'SUBSCRIPTION_LINK_INVALID', messages.subscriptionLinkInvalid);
  const childId = await deps.store.nextOrderId();
  const result = await commit(deps, async (session, emit): Promise<SubscriptionResult<{ subscription: AutoOrderView; order: OrderView }>> => {
    const auto = await subscriptionOf(deps, id, session);
    if (!auto) return fail('not-found', 'SUBSCRIPTION_NOT_FOUND', messages.subscriptionNotFound);
    if (actor.role !== 'admin' && actor.role !== 'staff') return fail('forbidden', 'ADMIN_ONLY', messages.adminOnly);
    if (actor.userId === auto.userId) return fail('forbidden', 'SELF_ACTION', messages.selfAction);
    const now = new Date();
    const verdict = recordPost(factsOf(auto), input.post, now);
    if (!verdict.ok) {
      if (verdict.expire) {
        const ended = await endIn(deps, session, emit, origin, auto, 'expired', now);
        if (ended.ok) await audit(deps, session, origin, actor, 'order.subscription.end', auto, { state: 'expired', refundedDeci: ended.value.auto.refundedDeci }, true);
      }
      return { ok: false, kind: 'conflict', problem: verdict.problem };
    }
    const child = runOrderOf(auto, childId, verdict.post, now, input.link ?? auto.link);
    const set = { completed: verdict.completedAfter, status: verdict.statusAfter, 'subscription.state': verdict.stateAfter, ...(verdict.finished ? { 'subscription.endedAt': now } : {}) };
    await deps.store.repository.update('auto', id, guardOf(auto), set, session);
    await deps.store.repository.insert([{ kind: 'order', doc: child }], session);
    emit(autoOrderRunPlaced({ autoOrderId: id, userId: auto.userId, run: verdict.post, runs: auto.runs, childOrderId: childId, serviceId: child.serviceId, link: child.link, amount: child.amount, subscription: true }, origin));
    if (verdict.finished) emit(autoOrderCompleted({ autoOrderId: id, userId: auto.userId, runs: auto.runs }, origin));
    await audit(deps, session, origin, actor, 'order.subscription.post', auto, { postsDone: verdict.completedAfter, state: verdict.stateAfter }, false);
    const after: AutoOrder = { ...auto, completed: verdict.completedAfter, status: verdict.statusAfter, subscription: { ...auto.subscription!, state: verdict.stateAfter, endedAt: verdict.finished ? now : null } };
    return { ok: true, value: { subscription: autoOrderView(after), order: orderView(child) } };
  });
  if (result.ok) deps.logger.info({ subscriptionId: id, post: result.value.order.run, childOrderId: childId, correlationId: origin.correlationId }, 'subscription post recorded');
  return result;
}

/** An operator pauses an active subscription (no posts are recorded while paused) or resumes a paused one. No money moves. */
export async function pauseSubscription(deps: OrderDeps, origin: EventOrigin, id: number, to: 'paused' | 'active', actor: SubscriptionActor): Promise<SubscriptionResult<AutoOrderView>> {
  return commit(deps, async (session): Promise<SubscriptionResult<AutoOrderView>> => {
    const auto = await subscriptionOf(deps, id, session);
    if (!auto) return fail('not-found', 'SUBSCRIPTION_NOT_FOUND', messages.subscriptionNotFound);
    if (actor.role !== 'admin' && actor.role !== 'staff') return fail('forbidden', 'ADMIN_ONLY', messages.adminOnly);
    const verdict = pauseOrResume(factsOf(auto), to);
    if (!verdict.ok) return { ok: false, kind: 'conflict', problem: verdict.problem };
    await deps.store.repository.update('auto', id, guardOf(auto), { 'subscription.state': verdict.stateAfter }, session);
    await audit(deps, session, origin, actor, to === 'paused' ? 'order.subscription.pause' : 'order.subscription.resume', auto, { state: verdict.stateAfter }, false);
    return { ok: true, value: autoOrderView({ ...auto, subscription: { ...auto.subscription!, state: verdict.stateAfter } }) };
  });
}

/**
 * Ends a subscription with the refund of the posts not done: expired or canceled by an admin (a
 * refund is an admin's, never to their own account), or canceled for its member by fulfillment
 * (the member's cancel of a subscription no provider runs). A second end changes nothing (409).
 */
export async function endSubscriptionNow(
  deps: OrderDeps,
  origin: EventOrigin,
  id: number,
  to: 'expired' | 'canceled',
  actor: SubscriptionActor,
  forMember?: string,
): Promise<SubscriptionResult<{ subscription: AutoOrderView; refundDeci: number }>> {
  const result = await commit(deps, async (session, emit): Promise<SubscriptionResult<{ subscription: AutoOrderView; refundDeci: number }>> => {
    const auto = await subscriptionOf(deps, id, session);
    if (!auto || (forMember !== undefined && auto.userId !== forMember)) return fail('not-found', 'SUBSCRIPTION_NOT_FOUND', messages.subscriptionNotFound);
    if (actor.role === 'staff') return fail('forbidden', 'STAFF_REFUND_ADMIN_ONLY', messages.staffRefund);
    if (actor.role !== 'admin') return fail('forbidden', 'ADMIN_ONLY', messages.adminOnly);
    if (actor.userId === auto.userId) return fail('forbidden', 'SELF_ACTION', messages.selfAction);
    const ended = await endIn(deps, session, emit, origin, auto, to, new Date());
    if (!ended.ok) return ended;
    await audit(deps, session, origin, actor, 'order.subscription.end', auto, { state: to, refundedDeci: ended.value.auto.refundedDeci }, true);
    return { ok: true, value: { subscription: autoOrderView(ended.value.auto), refundDeci: ended.value.refundDeci } };
  });
  if (result.ok) {
    deps.logger.info({ subscriptionId: id, ended: to, refundDeci: result.value.refundDeci, correlationId: origin.correlationId }, 'subscription ended');
    // It may have been the soonest to expire: the timer is set for the next one, or for none.
    deps.expiry.rearm();
  }
  return result;
}

/**
 * The expiry sweep: every live subscription whose expiry day is over expires, with its refund, each
 * in its own guarded transaction (one that changed meanwhile is left to its new state). Returns how
 * many expired.
 */
export async function expireDueSubscriptions(deps: OrderDeps, now = new Date(), limit = 100): Promise<number> {
  const due = await deps.store.repository.dueSubscriptions(now, limit);
  let expired = 0;
  for (const id of due) {
    const origin = { correlationId: `subscription-expiry-${randomUUID()}`, causationId: null };
    const done = await commit(deps, async (session, emit) => {
      const auto = await subscriptionOf(deps, id, session);
      if (!auto || auto.status !== AutoOrderStatus.values.ACTIVE || auto.subscription!.expiresAt === null || auto.subscription!.expiresAt > now) return false;
      return (await endIn(deps, session, emit, origin, auto, 'expired', now)).ok;
    });
    if (done) {
      expired += 1;
      deps.logger.info({ subscriptionId: id, correlationId: origin.correlationId }, 'subscription expired');
    }
  }
  return expired;
}
