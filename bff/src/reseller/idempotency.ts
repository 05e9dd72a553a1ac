import { createHash } from 'node:crypto';
import type { Redis } from 'ioredis';
import { HttpError } from '@smm/platform';
import { messages } from '../messages.ts';

/** An answer worth replaying: the status and the JSON body the client first received. */
export type StoredAnswer = { status: number; body: unknown };

type Record_ = { hash: string; answer: StoredAnswer };

/** JSON with sorted keys, so `{a,b}` and `{b,a}` are the same request. */
function canonical(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonical).join(',')}]`;
  if (value !== null && typeof value === 'object') {
    const entries = Object.entries(value as Record<string, unknown>)
      .filter(([, v]) => v !== undefined)
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${canonical(v)}`).join(',')}}`;
  }
  return JSON.stringify(value) ?? 'null';
}

export const requestHash = (route: string, body: unknown) => createHash('sha256').update(`${route}\n${canonical(body)}`).digest('base64url');

const validKey = /^[\x21-\x7e]{1,255}$/;

/**
 * Idempotency-Key handling for public writes (house rule 4; novu's interceptor is the model): per
 * member and key, Redis keeps the request's hash and its first answer for `ttlSeconds`.
 *
 * - same key, same request → the stored answer again (header `idempotent-replayed: true`);
 * - same key, another request → 409 IDEMPOTENCY_KEY_REUSED;
 * - a duplicate while the first is still running → waits for the first answer (SET NX lock, so the
 *   work runs once), or 409 IDEMPOTENCY_KEY_IN_PROGRESS if it does not come in time.
 *
 * Service failures (5xx) are not stored: the client may retry them with the same key.
 */
export class Idempotency {
  constructor(
    private readonly redis: Redis,
    private readonly ttlSeconds: number,
    private readonly lockMs: number,
  ) {}

  static validKey(key: string): boolean {
    return validKey.test(key);
  }

  async run(subject: string, key: string, hash: string, work: () => Promise<StoredAnswer>): Promise<StoredAnswer & { replayed: boolean }> {
    const recordKey = `bff:idem:${subject}:${key}`;
    const lockKey = `bff:idem-lock:${subject}:${key}`;
    const redis = this.guarded();
    // The lock, its holder and the record in one round trip, in that order: taking the lock means
    // the request that held it before has let it go — after storing its answer — so the record read
    // next shows that answer; no second read is needed.
    const attempt = () =>
      redis(() => Promise.all([this.redis.set(lockKey, hash, 'PX', this.lockMs, 'NX'), this.redis.get(lockKey), this.redis.get(recordKey)]));
    const deadline = Date.now() + this.lockMs;
    for (;;) {
      const [locked, holder, raw] = await attempt();
      if (raw !== null) {
        if (locked === 'OK') await this.redis.del(lockKey).catch(() => undefined);
        return { ...this.answerOf(raw, hash), replayed: true };
      }
      if (locked === 'OK') break;
      // Someone else runs this key now: a different request is refused at once, the same one waits.
      if (holder !== null && holder !== hash) throw reused();
      if (Date.now() > deadline) throw new HttpError(409, 'IDEMPOTENCY_KEY_IN_PROGRESS', messages.idempotencyInProgress);
      await new Promise((r) => setTimeout(r, 25));
    }
    let answer: StoredAnswer;
    try {
      answer = await work();
    } catch (error) {
      await this.redis.del(lockKey).catch(() => undefined);
      throw error;
    }
    // The answer stored, then the lock let go, in one round trip (one connection keeps the order).
    // The work is done: failing to remember its answer must not turn it into an error answer (the
    // client would retry and place again); the key is then just not remembered. Service failures
    // (5xx) are not stored.
    const record: Record_ = { hash, answer };
    await Promise.all([
      answer.status < 500 ? this.redis.set(recordKey, JSON.stringify(record), 'EX', this.ttlSeconds).catch(() => undefined) : undefined,
      this.redis.del(lockKey).catch(() => undefined),
    ]);
    return { ...answer, replayed: false };
  }

  /**
   * Redis calls before the work: without Redis the key cannot be honoured, so the request is
   * refused (503) rather than risking a second placement.
   */
  private guarded() {
    return async <T>(call: () => Promise<T>): Promise<T> => {
      try {
        return await call();
      } catch {
        throw new HttpError(503, 'SERVICE_UNAVAILABLE', messages.serviceUnavailable);
      }
    };
  }

  /** The stored answer of a record, or 409 when the key was used with another request. */
  private answerOf(raw: string, hash: string): StoredAnswer {
    const record = JSON.parse(raw) as Record_;
    if (record.hash !== hash) throw reused();
    return record.answer;
  }
}

const reused = () => new HttpError(409, 'IDEMPOTENCY_KEY_REUSED', messages.idempotencyReused);
