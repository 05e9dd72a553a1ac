/**
 * A rule the input broke, as the client should hear it. Domain rules return these instead of
 * throwing; the use case decides the answer's status (400, 403, 409, 503).
 */
export type Problem = { code: string; message: string };

export function problem(code: string, message: string): Problem {
  return { code, message };
}
