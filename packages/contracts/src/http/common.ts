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
