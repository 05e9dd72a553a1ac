import { randomUUID } from 'node:crypto';
import { type RunningServer, createLogger, listen, outboxModel } from '@smm/platform';
import { type Infra, callerHeaders, startInfra, testServiceSecret } from '@smm/testkit';
import { type SupportService, startSupportService } from '../src/service.ts';

export { startInfra };
export type { Infra };

const logger = createLogger({ service: 'support-test', level: 'silent' });

/** A clock the tests move by hand (the per-minute limit), never a sleep. */
export class TestClock {
  private at = Date.parse('2026-12-06T08:00:00Z');
  now = () => new Date(this.at);
  advance(ms: number) {
    this.at += ms;
  }
}

export type Support = SupportService & { base: string; clock: TestClock; close(): Promise<void> };

export async function startSupport(infra: Pick<Infra, 'kafka' | 'mongo'>, limits = { openPerMember: 2, messagesPerMinute: 3 }): Promise<Support> {
  const clock = new TestClock();
  const database = `support_${randomUUID().slice(0, 8)}`;
  const service = await startSupportService({
    mongoUrl: infra.mongo.uri(database),
    kafkaBrokers: [infra.kafka.brokers],
    logger,
    serviceAuthSecret: testServiceSecret,
    limits,
    now: clock.now,
    relayIntervalMs: 100,
  });
  const server: RunningServer = await listen(service.app, 0);
  return {
    ...service,
    base: `http://127.0.0.1:${server.port}`,
    clock,
    async close() {
      await server.close();
      await service.stop();
    },
  };
}

export type Who = { userId: string; role: 'member' | 'staff' | 'admin' };

/** One call to the service as the BFF makes it, for `who`. */
export async function call<T = Record<string, unknown>>(support: Support, who: Who | null, method: string, path: string, body?: unknown): Promise<{ status: number; body: T }> {
  const headers: Record<string, string> = who ? callerHeaders({ to: 'support', userId: who.userId, role: who.role }) : {};
  if (body !== undefined) headers['content-type'] = 'application/json';
  const res = await fetch(`${support.base}${path}`, { method, headers, body: body === undefined ? undefined : JSON.stringify(body) });
  const text = await res.text();
  return { status: res.status, body: (text === '' ? null : JSON.parse(text)) as T };
}

/** The events support wrote to its own topic about one ticket, oldest first. */
export async function ticketEvents(support: Support, ticketId: number): Promise<Array<{ type: string; data: Record<string, unknown> }>> {
  const rows = await outboxModel(support.connection).collection.find({ topic: 'support.events.v1', 'event.aggregateId': `ticket-${ticketId}` }, { sort: { _id: 1 } }).toArray();
  return rows.map((r) => r.event as { type: string; data: Record<string, unknown> });
}
