// kafkajs ships no types for its internals; the part of the request queue request-queue.ts replaces.
declare module 'kafkajs/src/network/requestQueue/index.js' {
  interface RequestQueue {
    pending: unknown[];
    throttledUntil: number;
    throttleCheckTimeoutId: ReturnType<typeof setTimeout> | null;
    checkPendingRequests(): void;
    scheduleCheckPendingRequests(): void;
    scheduleRequestTimeoutCheck(): void;
    sendSocketRequest(socketRequest: unknown): void;
    destroy(): void;
  }
  const RequestQueue: { prototype: RequestQueue };
  export default RequestQueue;
}
