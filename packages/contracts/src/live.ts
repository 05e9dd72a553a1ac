/**
 * The BFF's live channel to a member's open pages (Server-Sent Events on `GET /api/live`). Plain
 * types and constants only, so the web app imports this module directly (no zod, no node:crypto).
 */

/** What a page should re-read after an update. */
export type LiveTouch = 'balance' | 'orders' | 'autoOrders' | 'topUps' | 'tickets';

/** Worth a small notice on screen: an order completed, money came back, or an operator answered a ticket. */
export type LiveNotice = { kind: 'orderCompleted'; orderId: number } | { kind: 'refunded'; amountDeci: number } | { kind: 'ticketAnswered'; ticketId: number };

/**
 * One event that concerns the member, reduced to what the screen needs: its type, what to re-read,
 * the balance after it when the event carries one, and a notice when it deserves one.
 */
export type LiveUpdate = { type: string; touches: LiveTouch[]; balanceDeci?: number; notice?: LiveNotice };

/** Why the BFF ended a member's streams (issue 40): the password changed, every session ended with it. */
export type LiveEnded = { reason: 'password-changed' };

/**
 * SSE event names: `update` (id = the Kafka event id), `resync` (re-read everything), `ready`, and
 * `ended` (LiveEnded; the stream closes and the page signs out with the reason's message).
 */
export const liveEvents = { update: 'update', resync: 'resync', ready: 'ready', ended: 'ended' } as const;
