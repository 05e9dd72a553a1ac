import type { z } from 'zod';
import { badRequest, genericMessages } from './errors.ts';

/**
 * Parses request input with a zod schema. A mismatch becomes a 400 whose message is the first
 * issue's own message when the schema gave one in Korean (so spec messages reach the screen), and
 * whose details list every issue by field.
 */
export function parseInput<TSchema extends z.ZodType>(schema: TSchema, value: unknown): z.infer<TSchema> {
  const result = schema.safeParse(value);
  if (result.success) return result.data;
  const details = result.error.issues.map((issue) => ({ field: issue.path.join('.'), message: issue.message }));
  const first = result.error.issues[0]?.message;
  const message = first !== undefined && /[가-힣]/.test(first) ? first : genericMessages.badRequest;
  throw badRequest(message, details, 'VALIDATION_FAILED');
}
