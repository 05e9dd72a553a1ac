import type { OrderPatch } from '../store/forward.model.ts';
import { operatorHeaders } from './internal-headers.ts';

/** How the order service took a status change. `final`: the order had already ended (someone else moved it). */
export type PatchResult = 'applied' | 'final' | 'not-found' | 'refused';

/**
 * The order service's guarded status change (PATCH /admin/orders/:id): refunds for partial and
 * canceled follow from it (RefundRequested → wallet). Throws when the answer is not a decision
 * (network, 5xx), so the caller keeps the change and tries again.
 */
export function orderClient(baseUrl: string, serviceAuthSecret: string, timeoutMs = 10_000) {
  return {
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
