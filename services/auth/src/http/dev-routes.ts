import type { Express } from 'express';
import type { Redis } from 'ioredis';
import { normalizePhoneNumber } from '../domain/phone.ts';
import { readDevOutbox } from '../sms/dev-sms-sender.ts';
import { ruleError } from '../use-cases/context.ts';

/** Development only (SMS_DEV_OUTBOX=true): the texts the development SMS sender "sent". */
export function devRoutes(app: Express, redis: Redis): void {
  app.get('/dev/sms-outbox', async (req, res) => {
    const phone = normalizePhoneNumber(req.query.phoneNumber);
    if (!phone.ok) throw ruleError(phone.violation);
    res.json({ messages: await readDevOutbox(redis, phone.value) });
  });
}
