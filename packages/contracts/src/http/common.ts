import { z } from 'zod';

/**
 * Shapes every internal service answers in. Service answers are read as loose objects: a reader
 * checks the fields it uses and keeps the rest (the BFF relays many bodies whole), so a service may
 * add a field without breaking anyone, but may not drop or retype one silently.
 */

/** The platform's error body (`HttpError`): a stable code and a Korean message, sometimes more fields. */
export const errorBody = z.looseObject({ code: z.string(), message: z.string() });
export type ErrorBody = z.infer<typeof errorBody>;

/** A numbered page: `hasNext` says whether page + 1 has rows (no total count is kept). */
export type Page<T> = { items: T[]; page: number; pageSize: number; hasNext: boolean };

export const page = <T extends z.ZodType>(item: T) =>
  z.looseObject({ items: z.array(item), page: z.number().int(), pageSize: z.number().int(), hasNext: z.boolean() });

/** A plain list in `{ items }` (batched lookups by id). */
export const itemList = <T extends z.ZodType>(item: T) => z.looseObject({ items: z.array(item) });

/** A moment as ISO-8601 text (`Date.toISOString()`). */
export const isoDateText = z.string().min(1);

/** A member's restriction as auth sends it (see restriction.ts). */
export const restrictionBody = z.object({ level: z.enum(['warning', 'suspended', 'banned']), reason: z.string(), until: z.string().nullable() });

/*
 * Request bodies the BFF sends and a service reads. Each field is read the way the receiving
 * service's own rules read it: a value of another type becomes what those rules already treat it as
 * (absent text, NaN for a number), so the service still refuses it with its own Korean message, in
 * its own order. The schema types what callers send (`z.input`, used by the BFF) and never answers
 * first with a generic error; a body that is not an object reads as an empty one.
 */

/** Text a service checks itself (required, length, format); another type reads as absent. */
export const requestText = () => z.string().optional().catch(undefined);
/** A number as JSON or as decimal text (HTML forms, API v2); another type reads as NaN. */
export const requestNumber = () => z.union([z.number(), z.string()]).nullish().catch(Number.NaN);
/** A body of `shape`; anything but an object reads as `{}` (every field absent or its default). */
export const requestBody = <T extends z.ZodRawShape>(shape: T) => {
  const body = z.object(shape);
  return body.catch(() => body.parse({}));
};
