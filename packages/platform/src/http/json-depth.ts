import type { NextFunction, Request, Response } from 'express';
import { badRequest, genericMessages } from './errors.ts';

/** How deeply nested a JSON body may be; no request of ours needs more than a few levels. */
export const maxJsonDepth = 32;

/** The nesting depth of a parsed JSON value, counted without recursion (so it cannot overflow itself). */
export function jsonDepth(value: unknown, stopAt = Infinity): number {
  let deepest = 0;
  const stack: Array<[unknown, number]> = [[value, 1]];
  while (stack.length > 0) {
    const [node, depth] = stack.pop()!;
    if (typeof node !== 'object' || node === null) continue;
    if (depth > deepest) deepest = depth;
    if (deepest > stopAt) return deepest;
    for (const child of Array.isArray(node) ? node : Object.values(node)) stack.push([child, depth + 1]);
  }
  return deepest;
}

/**
 * A body nested deeper than `limit` is a 400 before any route sees it: further down, recursive
 * code (JSON.stringify when the BFF forwards it, validation) would overflow the stack and answer
 * 500 — the audit saw that with 10 kB of `[`.
 */
export function rejectDeepJson(limit = maxJsonDepth) {
  return (req: Request, _res: Response, next: NextFunction) => {
    if (typeof req.body === 'object' && req.body !== null && jsonDepth(req.body, limit) > limit) {
      next(badRequest(genericMessages.badRequest, undefined, 'JSON_TOO_DEEP'));
      return;
    }
    next();
  };
}
