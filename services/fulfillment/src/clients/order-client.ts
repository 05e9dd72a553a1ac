import { anyOrderView } from '@smm/contracts/http';
import type { OrderPatch } from '../store/forward.model.ts';
import { operatorHeaders } from './internal-headers.ts';

/** An order as fulfillment needs to know it before its record exists. */
export type KnownOrder = { userId: string; kind: 'order' | 'auto'; payment: 'awaiting_payment' | 'paid' | 'rejected'; subscription: boolean };

/** How the order service took a status change. `final`: the order had already ended (someone else moved it). */
export type PatchResult = 'applied' | 'final' | 'not-found' | 'refused';

/**
 * The order service's guarded status change (PATCH /admin/orders/:id): refunds for partial and
 * canceled follow from it (RefundRequested → wallet). Throws when the answer is not a decision
 * (network, 5xx), so the caller keeps the change and tries again.
 */
export function orderClient(baseUrl: string, serviceAuthSecret: string, timeoutMs = 10_000) {
  const post = async (path: string, body: Record<string, unknown>, correlationId: string): Promise<{ status: number; code: string | undefined }> => {
    const res = await fetch(`${baseUrl}${path}`, {
      method: 'POST',
      headers: { ...operatorHeaders(serviceAuthSecret, 'order'), 'content-type': 'application/json', 'x-correlation-id': correlationId },
      body: JSON.stringify(body),
      signal: AbortSignal.timeout(timeoutMs),
    });
    const answer = (await res.json().catch(() => ({}))) as { code?: string };
    if (res.status >= 500) throw new Error(`order service answered ${res.status}`);
    return { status: res.status, code: answer.code };
  };
  return {
    /**
     * What the order service knows of an order fulfillment has no record of (GET /orders/:id, as an
     * operator): its owner, kind and payment; null when there is no such order. Throws when the
     * answer is not a decision, like the writes.
     */
    async findOrder(orderId: number): Promise<KnownOrder | null> {
      const res = await fetch(`${baseUrl}/orders/${orderId}`, { headers: operatorHeaders(serviceAuthSecret, 'order'), signal: AbortSignal.timeout(timeoutMs) });
      if (res.status === 404) return null;
      if (!res.ok) throw new Error(`order service answered ${res.status}`);
      const parsed = anyOrderView.safeParse(await res.json());
      if (!parsed.success) throw new Error('order service answered off its contract');
      const order = parsed.data;
      return { userId: order.userId, kind: order.kind, payment: order.payment, subscription: order.kind === 'auto' && order.subscription != null };
    },
    /**
     * A subscription's post `post` as the provider reported it (POST /admin/subscriptions/:id/posts):
     * 'applied', 'known' (recorded before: the post is no longer the next one), or 'refused' (ended,
     * paused, past its expiry — the code says which).
     */
    async recordPost(subscriptionId: number, postNumber: number, correlationId: string): Promise<{ result: 'applied' | 'known' | 'refused'; code?: string | undefined }> {
      const answer = await post(`/admin/subscriptions/${subscriptionId}/posts`, { post: postNumber }, correlationId);
      if (answer.status === 201) return { result: 'applied' };
      if (answer.code === 'SUBSCRIPTION_POST_INVALID') return { result: 'known' };
      return { result: 'refused', code: answer.code };
    },
    /** Ends a subscription with the refund of its unused posts; 'ended' also when it had ended already. `userId`: only the member's. */
    async endSubscription(subscriptionId: number, state: 'expired' | 'canceled', correlationId: string, userId?: string): Promise<{ result: 'applied' | 'ended' | 'not-found'; code?: string | undefined }> {
      const answer = await post(`/admin/subscriptions/${subscriptionId}/end`, { state, ...(userId ? { userId } : {}) }, correlationId);
      if (answer.status === 200) return { result: 'applied' };
      if (answer.status === 404) return { result: 'not-found' };
      if (answer.code === 'SUBSCRIPTION_NOT_ACTIVE') return { result: 'ended', code: answer.code };
      throw new Error(`order service refused ending subscription ${subscriptionId}: ${answer.status} ${answer.code ?? ''}`);
    },
    /** Pauses or resumes a subscription as its provider reports it (409: it already is, or ended). */
    async pauseSubscription(subscriptionId: number, to: 'pause' | 'resume', correlationId: string): Promise<boolean> {
      return (await post(`/admin/subscriptions/${subscriptionId}/${to}`, {}, correlationId)).status === 200;
    },
    async patchStatus(orderId: number, patch: OrderPatch, correlationId: string): Promise<PatchResult> {
      const body: Record<string, unknown> = { status: patch.status, remains: patch.remains };
      if (patch.startCount !== null) body.startCount = patch.startCount;
      if (patch.reason !== null) body.reason = patch.reason;
      const res = await fetch(`${baseUrl}/admin/orders/${orderId}`, {
        method: 'PATCH',
        headers: { ...operatorHeaders(serviceAuthSecret, 'order'), 'content-type': 'application/json', 'x-correlation-id': correlationId },
        body: JSON.stringify(body),
        signal: AbortSignal.timeout(timeoutMs),
      });
      const answer = (await res.json().catch(() => ({}))) as { code?: string };
      if (res.ok) return 'applied';
      if (res.status === 404) return 'not-found';
      if (res.status === 409 && answer.code === 'ORDER_STATUS_FINAL') return 'final';
      if (res.status === 400 || res.status === 409) return 'refused';
      throw new Error(`order service answered ${res.status}`);
    },
  };
}

export type OrderClient = ReturnType<typeof orderClient>;
