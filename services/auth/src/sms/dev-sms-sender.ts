import type { Redis } from 'ioredis';
import type { Logger } from 'pino';
import type { SmsSender } from './sms-sender.ts';

export type OutboxMessage = { phoneNumber: string; text: string; code: string; sentAt: string };

const OUTBOX_KEEP = 10;
const OUTBOX_TTL_SECONDS = 3600;

/**
 * The development sender: nothing leaves the machine. Each message is logged and, when the
 * development outbox is enabled, kept in Redis (last 10 per number, 1 hour) so tests and a
 * developer can read the code through `GET /dev/sms-outbox`.
 */
export class DevSmsSender implements SmsSender {
  constructor(
    private readonly logger: Logger,
    private readonly redis: Redis,
    private readonly outboxEnabled: boolean,
  ) {}

  async send(phoneNumber: string, text: string, meta: { code: string }): Promise<void> {
    this.logger.info({ phoneNumber, text, code: meta.code }, 'sms sent (development sender)');
    if (!this.outboxEnabled) return;
    const key = outboxKey(phoneNumber);
    const message: OutboxMessage = { phoneNumber, text, code: meta.code, sentAt: new Date().toISOString() };
    await this.redis.multi().lpush(key, JSON.stringify(message)).ltrim(key, 0, OUTBOX_KEEP - 1).expire(key, OUTBOX_TTL_SECONDS).exec();
  }
}

const outboxKey = (phoneNumber: string) => `auth:dev-sms-outbox:${phoneNumber}`;

/** Newest first. */
export async function readDevOutbox(redis: Redis, phoneNumber: string): Promise<OutboxMessage[]> {
  const raw = await redis.lrange(outboxKey(phoneNumber), 0, -1);
  return raw.map((line) => JSON.parse(line) as OutboxMessage);
}
