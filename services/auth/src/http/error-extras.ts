import type { NextFunction, Request, Response } from 'express';
import { RetryLater } from '../use-cases/context.ts';
import { SocialAccountNotRegistered } from '../use-cases/social-login.ts';

/**
 * Runs before the platform's error mapper for the two answers that carry more than
 * `{code, message}`: a Retry-After header on limits, and the continuation token on a social 404.
 */
export function errorExtras(error: unknown, _req: Request, res: Response, next: NextFunction): void {
  if (error instanceof SocialAccountNotRegistered) {
    res.status(404).json({ code: error.code, message: error.message, accessToken: error.signupToken });
    return;
  }
  if (error instanceof RetryLater && error.retryAfterSeconds > 0) res.setHeader('retry-after', String(error.retryAfterSeconds));
  next(error);
}
