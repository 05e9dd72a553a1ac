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
