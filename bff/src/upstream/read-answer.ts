import type { z } from 'zod';
import { HttpError } from '@smm/platform';
import { messages } from '../messages.ts';
import type { CallContext, ServiceAnswer } from './service-client.ts';

/**
 * The body of a service's answer, checked against its contract in `@smm/contracts/http`. A body
 * off the contract is the service's fault, never the member's: a 502 SERVICE_FAILED (`message`,
 * by default the generic Korean one), and a log line naming the call and zod's first issues, rather
 * than a TypeError deeper in a route (a 500) or a wrong figure on a screen.
 */
export function readAnswer<S extends z.ZodType>(ctx: Pick<CallContext, 'log'>, answer: ServiceAnswer, schema: S, message: string = messages.upstreamFailed): z.output<S> {
  const parsed = schema.safeParse(answer.body);
  if (parsed.success) return parsed.data;
  const issues = parsed.error.issues.slice(0, 5).map((i) => ({ path: i.path.join('.'), code: i.code, message: i.message }));
  ctx.log.error({ route: answer.route ?? 'unknown', status: answer.status, issues }, 'service answered off its contract');
  throw new HttpError(502, 'SERVICE_FAILED', message);
}
