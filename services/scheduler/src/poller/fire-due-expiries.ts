import type { Logger } from 'pino';
import { Topics, TopUpExpiryDue } from '@smm/contracts';
import { type Connection, appendToOutbox, inTransaction } from '@smm/platform';
import type { TopUpExpiries } from '../store/topup-expiry.model.ts';
import type { FireResult } from './due-poller.ts';

export type FireExpiriesDeps = { connection: Connection; expiries: TopUpExpiries; logger: Logger };

const expiriesPerPass = 100;

/** Fires TopUpExpiryDue once for every top-up request whose expiry time has come and that is still open. */
export async function fireDueExpiries(deps: FireExpiriesDeps, now: Date): Promise<FireResult> {
  const { connection, expiries, logger } = deps;
  const result: FireResult = { fired: 0, waiting: 0 };
  for (const { expiry, origin } of await expiries.findDue(now, expiriesPerPass)) {
    const event = await inTransaction(connection, async (session) => {
      if (!(await expiries.claim(expiry.topUpId, session))) return null;
      const due = TopUpExpiryDue.create(`topup-${expiry.topUpId}`, { topUpId: expiry.topUpId, userId: expiry.userId }, origin);
      await appendToOutbox(connection, session, Topics.scheduler, [due]);
      return due;
    });
    if (event === null) continue;
    result.fired += 1;
    logger.info({ correlationId: event.correlationId, eventId: event.eventId, topUpId: expiry.topUpId, dueAt: expiry.dueAt }, 'top-up expiry due');
  }
  return result;
}
