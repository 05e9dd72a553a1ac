// eslint-disable-next-line @typescript-eslint/triple-slash-reference
/// <reference path="./kafkajs-request-queue.d.ts" />
// A static import, so the production bundle (infra/docker) carries the module kafkajs itself uses.
import RequestQueue from 'kafkajs/src/network/requestQueue/index.js';

/** kafkajs's own retry interval for waiting requests once a throttle has passed. */
const CHECK_PENDING_REQUESTS_INTERVAL_MS = 10;

/**
 * kafkajs 2.2.4's request queue (one per broker connection) re-arms a timer every millisecond for
 * as long as the connection lives: after each check it schedules the next one at
 * `throttledUntil - Date.now()`, which is negative when the broker is not throttling, and the timer
 * schedules the next (tulios/kafkajs#1556, fixes proposed in #1667 and #1768, none released). Every
 * producer, consumer and admin connection of every service woke the process ~1,000 times a second:
 * about a third of an idle devstack's CPU, and a tax on every order under load.
 *
 * The replacement schedules a check only when there is something to check: requests waiting
 * (at the end of the broker's throttle, or soon if the throttle has already passed) or a throttle
 * still to run out. A request that arrives later is sent by `push`, or queued with a check scheduled
 * here; a finished request checks the queue itself (`fulfillRequest`), so nothing waits on a timer
 * that no longer exists.
 */
RequestQueue.prototype.scheduleCheckPendingRequests = function scheduleCheckPendingRequests(this: typeof RequestQueue.prototype) {
  if (this.throttleCheckTimeoutId) return;
  const throttleLeft = this.throttledUntil - Date.now();
  if (this.pending.length === 0 && throttleLeft <= 0) return;
  const delay = throttleLeft > 0 ? throttleLeft : CHECK_PENDING_REQUESTS_INTERVAL_MS;
  this.throttleCheckTimeoutId = setTimeout(() => {
    this.throttleCheckTimeoutId = null;
    this.checkPendingRequests();
  }, delay);
};

type InFlightRequest = { sentAt: number | null; requestTimeout: number; timeoutRequest(): void };
type Queue = typeof RequestQueue.prototype & {
  enforceRequestTimeout: boolean;
  inflight: Map<number, InFlightRequest>;
  isConnected(): boolean;
  /** Set by scheduleRequestTimeoutCheck: request timeouts are enforced on this connection. */
  timeoutsEnforced?: boolean;
  timeoutCheckId?: ReturnType<typeof setTimeout> | null;
  timeoutCheckAt?: number;
};

/**
 * kafkajs enforces request timeouts with a 100 ms interval per broker connection for as long as the
 * connection lives, requests in flight or not: every producer, consumer and admin connection woke
 * its process 10 times a second with nothing to do — most of an idle service's wake-ups once the
 * other timers slept (issue 42). The replacement sets one timer per connection for the soonest
 * deadline of a request in flight (sent at + its timeout), set again as requests are sent and when
 * it fires; with nothing in flight there is none. A consumer's long-poll fetch is answered before
 * its deadline, so an idle consumer's connection wakes for the fetch, not for the check.
 */
function armRequestTimeoutCheck(queue: Queue): void {
  let soonest = Number.POSITIVE_INFINITY;
  for (const request of queue.inflight.values()) if (request.sentAt !== null) soonest = Math.min(soonest, request.sentAt + request.requestTimeout);
  if (soonest === Number.POSITIVE_INFINITY) return; // nothing in flight: the next send sets it
  if (queue.timeoutCheckId && (queue.timeoutCheckAt ?? Number.POSITIVE_INFINITY) <= soonest) return;
  clearTimeout(queue.timeoutCheckId ?? undefined);
  queue.timeoutCheckAt = soonest;
  queue.timeoutCheckId = setTimeout(() => {
    queue.timeoutCheckId = null;
    queue.timeoutCheckAt = Number.POSITIVE_INFINITY;
    checkRequestTimeouts(queue);
  }, Math.max(0, soonest - Date.now() + 1));
}

/** What kafkajs's interval did on each tick: time out overdue requests, stop on a closed connection. */
function checkRequestTimeouts(queue: Queue): void {
  const now = Date.now();
  queue.inflight.forEach((request) => {
    if (request.sentAt !== null && now - request.sentAt > request.requestTimeout) request.timeoutRequest();
  });
  if (!queue.isConnected()) {
    queue.destroy();
    return;
  }
  armRequestTimeoutCheck(queue);
}

const kafkajsDestroy = RequestQueue.prototype.destroy;
RequestQueue.prototype.destroy = function destroy(this: Queue) {
  kafkajsDestroy.call(this);
  clearTimeout(this.timeoutCheckId ?? undefined);
  this.timeoutCheckId = null;
  this.timeoutCheckAt = Number.POSITIVE_INFINITY;
};

RequestQueue.prototype.scheduleRequestTimeoutCheck = function scheduleRequestTimeoutCheck(this: Queue) {
  if (!this.enforceRequestTimeout) return;
  this.destroy();
  this.timeoutsEnforced = true;
  armRequestTimeoutCheck(this);
};

const kafkajsSendSocketRequest = RequestQueue.prototype.sendSocketRequest;
RequestQueue.prototype.sendSocketRequest = function sendSocketRequest(this: Queue, socketRequest: unknown) {
  kafkajsSendSocketRequest.call(this, socketRequest);
  if (this.timeoutsEnforced) armRequestTimeoutCheck(this);
};
