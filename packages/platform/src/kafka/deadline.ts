/** Thrown when a handler call outlives its deadline: its events are delivered again. */
export class HandlerTimeoutError extends Error {
  override name = 'HandlerTimeoutError';
}

/** `work`, or a HandlerTimeoutError once `ms` pass first (the work itself cannot be stopped; it is left behind). */
export function withDeadline<T>(work: Promise<T>, ms: number, what: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const deadline = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new HandlerTimeoutError(`${what} did not finish within ${ms} ms; delivering its events again`)), ms);
  });
  return Promise.race([work, deadline]).finally(() => clearTimeout(timer));
}
