import type { Request } from 'express';
import { badRequest } from '@smm/platform';
import { messages } from '../domain/messages.ts';

export const defaultPageSize = 20;
export const maxPageSize = 100;

const single = (value: unknown): string | undefined => (typeof value === 'string' ? value : undefined);

/** `page` (1-based) and `pageSize` (capped at 100) from the query; a non-number is a 400. */
export function pageOf(req: Request): { page: number; pageSize: number; skip: number } {
  const read = (name: string, fallback: number): number => {
    const raw = single(req.query[name]);
    if (raw === undefined || raw.trim() === '') return fallback;
    if (!/^\d+$/.test(raw.trim()) || Number(raw) < 1) throw badRequest(messages.pageInvalid, undefined, 'PAGE_INVALID');
    return Number(raw);
  };
  const page = read('page', 1);
  const pageSize = Math.min(read('pageSize', defaultPageSize), maxPageSize);
  return { page, pageSize, skip: (page - 1) * pageSize };
}

export const queryText = (req: Request, name: string): string | undefined => {
  const value = single(req.query[name])?.trim();
  return value === undefined || value === '' ? undefined : value;
};
