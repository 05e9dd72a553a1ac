import type { Request, Response, Router } from 'express';
import { type AdminDashboardBody, type ReconcileStatusBody, forwardList, moneySummary, noticeList, orderCounts, providerList, reconcileStatus } from '@smm/contracts/http';
import type { DeadLetterReader } from '../ops/dead-letters.ts';
import type { TokenVerifier } from '../security/token-verifier.ts';
import { readAnswer } from '../upstream/read-answer.ts';
import { failed, relay } from '../upstream/relay.ts';
import type { ServiceClient } from '../upstream/service-client.ts';
import { access } from './access.ts';
import { callContext, callerOf } from './context.ts';

/**
 * The console's landing screen (issue 12), composed from the services' own aggregates: wallet's
 * days of sales, refunds and approved top-ups and its pending top-ups, order's paid orders per
 * status, fulfillment's review and failed forwards (both roles: staff settle the review queue) and
 * — for admins, whose screens they are — provider balances, fulfillment's unread notices
 * (repriced, read-only, balance low) and the events the services' consumers dead-lettered (counted
 * from Kafka's dead-letter topics). Fulfillment and Kafka are optional: without them those parts
 * are null; for staff, `providers`, `notices` and `deadLetters` are null.
 */
export function adminDashboardRoutes(router: Router, verifier: TokenVerifier, wallet: ServiceClient, order: ServiceClient, fulfillment: ServiceClient, deadLetters?: DeadLetterReader): void {
  router.get('/admin/dashboard', access(verifier, 'operator'), async (req: Request, res: Response) => {
    const ctx = callContext(req);
    const [money, orders] = await Promise.all([wallet.call(ctx, 'GET', '/admin/dashboard', { query: new URLSearchParams({ days: '7' }) }), order.call(ctx, 'GET', '/admin/dashboard')]);
    if (failed(money)) return relay(res, money);
    if (failed(orders)) return relay(res, orders);
    const admin = callerOf(req).role === 'admin';
    const [forwards, dead] = await Promise.all([forwarding(ctx, fulfillment, admin), admin ? deadLetterCounts(deadLetters, req) : null]);
    const summary = readAnswer(ctx, money, moneySummary);
    const { byStatus } = readAnswer(ctx, orders, orderCounts);
    res.json({ ...summary, ordersByStatus: byStatus, fulfillment: forwards, deadLetters: dead } satisfies AdminDashboardBody);
  });

  // The reconciliation (infra/reconcile), run by the wallet (read-only): its latest run, and "run it now"
  // for both roles. The wallet answers a run once done or after 5 s with it underway, so the call
  // waits longer than the usual upstream timeout.
  const reconcile = async (req: Request, res: Response, method: 'GET' | 'POST') => {
    const ctx = callContext(req);
    const answer = method === 'GET' ? await wallet.call(ctx, 'GET', '/admin/reconcile/latest') : await wallet.call(ctx, 'POST', '/admin/reconcile', { body: {}, timeoutMs: 20_000 });
    if (failed(answer)) return relay(res, answer);
    res.json(readAnswer(ctx, answer, reconcileStatus) satisfies ReconcileStatusBody);
  };
  router.get('/admin/reconcile', access(verifier, 'operator'), (req: Request, res: Response) => reconcile(req, res, 'GET'));
  router.post('/admin/reconcile', access(verifier, 'operator'), (req: Request, res: Response) => reconcile(req, res, 'POST'));
}

/** Counts are capped by the service's list limit (200): the screen shows "200+" beyond it. */
async function forwarding(ctx: ReturnType<typeof callContext>, fulfillment: ServiceClient, admin: boolean) {
  try {
    const list = (state: string) => fulfillment.call(ctx, 'GET', '/admin/forwards', { query: new URLSearchParams({ state, limit: '200' }) });
    const [review, failedForwards] = await Promise.all([list('review'), list('failed')]);
    if (failed(review) || failed(failedForwards)) return null;
    const queues = { review: readAnswer(ctx, review, forwardList).length, failed: readAnswer(ctx, failedForwards, forwardList).length };
    // Provider balances and notices belong to the providers screen, which is the admin's.
    if (!admin) return { ...queues, notices: null, providers: null };
    const [providers, notices] = await Promise.all([fulfillment.call(ctx, 'GET', '/admin/providers'), fulfillment.call(ctx, 'GET', '/admin/notices', { query: new URLSearchParams({ limit: '1' }) })]);
    if (failed(providers)) return null;
    return {
      ...queues,
      // An older fulfillment without notices still gives the rest of its part.
      notices: failed(notices) ? 0 : readAnswer(ctx, notices, noticeList).unread,
      providers: readAnswer(ctx, providers, providerList).map(({ id, name, currency, balance, balanceLow, lastError }) => ({ id, name, currency, balance, balanceLow, lastError })),
    };
  } catch {
    // Fulfillment not configured, not answering or answering off its contract (logged by
    // readAnswer): the rest of the dashboard still shows.
    return null;
  }
}

/** Kafka not configured or not answering: the rest of the dashboard still shows (null). */
async function deadLetterCounts(reader: DeadLetterReader | undefined, req: Request) {
  if (!reader) return null;
  try {
    return await reader.counts();
  } catch (error) {
    req.log.warn({ err: (error as Error).message }, 'dead letters could not be counted');
    return null;
  }
}
