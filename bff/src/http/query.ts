import type { Request } from 'express';
import { HttpError } from '@smm/platform';
import { messages } from '../messages.ts';

type Rule = { name: string; pattern: RegExp };

const paging: Rule[] = [
  { name: 'page', pattern: /^[1-9]\d{0,6}$/ },
  { name: 'pageSize', pattern: /^(100|[1-9]\d?)$/ },
];
export const statusRule: Rule = { name: 'status', pattern: /^[0-5]$/ };
export const userIdRule: Rule = { name: 'userId', pattern: /^[A-Za-z0-9-]{1,64}$/ };
export const paymentTypeRule: Rule = { name: 'paymentType', pattern: /^(ALL|CASH_AND_FEE|FEE|CASH|NO_FEE)$/ };

/**
 * The paging and filter query of a list, checked here so a service only ever sees well-formed
 * values (page ≥ 1, pageSize 1–100, status 0–5, …); a bad one is a 400, never a service error.
 */
export function listQuery(req: Request, extra: Rule[] = [], fixed: Record<string, string> = {}): URLSearchParams {
  const query = new URLSearchParams(fixed);
  for (const rule of [...paging, ...extra]) {
    const value = req.query[rule.name];
    if (value === undefined || value === '') continue;
    if (typeof value !== 'string' || !rule.pattern.test(value)) {
      throw new HttpError(400, 'VALIDATION_FAILED', messages.badRequest, [{ field: rule.name, message: messages.badRequest }]);
    }
    query.set(rule.name, value);
  }
  return query;
}

/** A positive integer id in a path, or 404 with the given answer. */
export function idParam(value: unknown, notFound: () => HttpError): number {
  if (typeof value !== 'string' || !/^[1-9]\d{0,14}$/.test(value)) throw notFound();
  return Number(value);
}
