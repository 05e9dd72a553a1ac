import type { Redis } from 'ioredis';
import type { Logger } from 'pino';
import type { LiveEnded } from '@smm/contracts';
import type { LiveHub } from './live-hub.ts';

const channel = 'bff:live:session-ended';

/**
 * A member's sessions ended here (issue 40: a password change): every BFF replica must close that
 * member's open live streams with the reason, since the member's other tabs may hold streams on
 * any of them. Redis pub/sub carries the word: nothing is kept, a replica that misses it still
 * refuses the old tokens on the next request (the token version), only without the live notice.
 */
export class SessionEnds {
  private subscriber: Redis | null = null;

  constructor(private readonly redis: Redis) {}

  /** Tells every replica (this one included) to end the member's streams. Best effort: never fails the request. */
  async announce(userId: string, ended: LiveEnded, log: Logger): Promise<void> {
    await this.redis.publish(channel, JSON.stringify({ userId, ...ended })).catch((error: unknown) => log.warn({ err: String(error) }, 'live: session end not announced'));
  }

  /** Listens on a connection of its own (a subscribed connection can do nothing else) and ends streams in `hub`. */
  async listen(hub: LiveHub, logger: Logger): Promise<void> {
    const subscriber = this.redis.duplicate();
    this.subscriber = subscriber;
    subscriber.on('message', (_channel: string, raw: string) => {
      try {
        const { userId, reason } = JSON.parse(raw) as { userId?: unknown; reason?: unknown };
        if (typeof userId === 'string' && reason === 'password-changed') hub.end(userId, { reason });
      } catch {
        logger.warn('live: unreadable session end skipped');
      }
    });
    await subscriber.subscribe(channel);
  }

  async stop(): Promise<void> {
    await this.subscriber?.quit().catch(() => undefined);
    this.subscriber = null;
  }
}
