import type { NextFunction, Request, Response } from 'express';
import { freeTextProblem } from '@smm/contracts';
import { badRequest } from '@smm/platform';
import { messages } from '../messages.ts';

/**
 * Fields whose text may run over several lines (a rejection reason, a notice's content, an FAQ
 * answer, a product's notice, comments, a support ticket's or saved reply's body): line breaks and tabs are allowed there, nowhere else.
 */
const multilineFields = new Set(['reason', 'content', 'answer', 'notice', 'note', 'memo', 'comments', 'usernames', 'message', 'description', 'body']);
/** Secrets are compared, never shown: their characters are their owners' business. */
const secretField = /password|token|secret|signature/i;

type Found = { field: string; problem: 'unsafe' | 'invisible' };

/** The first string in `value` (an object or array from a request body or query) that `freeTextProblem` refuses. */
export function unsafeText(value: unknown, path = '', key = ''): Found | null {
  if (typeof value === 'string') {
    if (secretField.test(key)) return null;
    const problem = freeTextProblem(value, multilineFields.has(key));
    return problem === null ? null : { field: path, problem };
  }
  if (typeof value !== 'object' || value === null) return null;
  if (Array.isArray(value)) {
    for (let i = 0; i < value.length; i++) {
      const found = unsafeText(value[i], `${path}.${i}`, key);
      if (found) return found;
    }
    return null;
  }
  for (const [name, inner] of Object.entries(value)) {
    const found = unsafeText(inner, path === '' ? name : `${path}.${name}`, name);
    if (found) return found;
  }
  return null;
}

/** The error every route answers for refused free text: 400 VALIDATION_FAILED naming the field. */
export function textError(found: Found) {
  const message = found.problem === 'unsafe' ? messages.textUnsafe : messages.textInvisible;
  return badRequest(message, [{ field: found.field, message }], 'VALIDATION_FAILED');
}

/**
 * One rule for all free text at the public edge: a body or query string holding control
 * characters, bidirectional overrides or nothing but invisible characters is refused before any
 * route sees it, so no service stores, shows or exports it. Signed bank notifications are left to
 * their own verification (the bank's bytes are what was signed).
 */
export function refuseUnsafeText(skip: ReadonlySet<string>) {
  return (req: Request, _res: Response, next: NextFunction) => {
    if (skip.has(req.path)) return next();
    const found = unsafeText(req.body) ?? unsafeText(req.query);
    if (found) throw textError(found);
    next();
  };
}
