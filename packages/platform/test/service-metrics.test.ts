import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, describe, expect, it } from 'vitest';
import { createHttpApp, createLogger, endServiceScopes, withServiceMetrics } from '../src/index.ts';

const logger = createLogger({ service: 'scoped-metrics-test', level: 'silent' });
const servers: Server[] = [];
afterAll(() => servers.forEach((s) => s.close()));

/**
 * An app built inside a metrics scope of its own, its flow module imported there, as the devstack's
 * shared process imports and starts each service.
 */
async function scopedApp(route: string, flowModule: string, work: (flows: Record<string, unknown>) => void): Promise<{ base: string; flows: Record<string, unknown> }> {
  return withServiceMetrics(async () => {
    const flows = (await import(flowModule)) as Record<string, unknown>;
    const app = createHttpApp({
      logger,
      serviceAuth: null,
      opsToken: 'ops',
      routes: (a) =>
        a.get(route, (_req, res) => {
          work(flows);
          res.json({ ok: true });
        }),
    });
    const server = await new Promise<Server>((resolve) => {
      const s = app.listen(0, '127.0.0.1', () => resolve(s));
    });
    servers.push(server);
    return { base: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, flows };
  });
}

const metricsOf = async (base: string) => (await fetch(`${base}/metrics`, { headers: { authorization: 'Bearer ops' } })).text();

describe('services sharing one process (withServiceMetrics)', () => {
  it("each app's /metrics shows only what that app recorded", async () => {
    type Saga = { sagaDuration: { observeSince(labels: { outcome: string }, start: Date): void } };
    type Decisions = { decisions: { add(labels: { decision: string }, n: number): void } };
    const { base: first } = await scopedApp('/first', './fixtures/scoped-flows/saga.ts', (f) => (f as Saga).sagaDuration.observeSince({ outcome: 'paid' }, new Date(Date.now() - 50)));
    const { base: second } = await scopedApp('/second', './fixtures/scoped-flows/decisions.ts', (f) => (f as Decisions).decisions.add({ decision: 'debited' }, 2));
    // Once every app has started the scope is turned off (no promise hooks); what each records still
    // lands in its own registry, bound when it was built.
    endServiceScopes();
    expect((await fetch(`${first}/first`)).status).toBe(200);
    expect((await fetch(`${second}/second`)).status).toBe(200);
    expect((await fetch(`${second}/second`)).status).toBe(200);

    const a = await metricsOf(first);
    const b = await metricsOf(second);
    expect(a).toMatch(/^http_request_duration_seconds_count\{method="GET",route="\/first",status="200"\} 1$/m);
    expect(a).not.toContain('route="/second"');
    expect(a).toMatch(/^scoped_test_saga_seconds_count\{outcome="paid"\} 1$/m);
    expect(a).not.toContain('scoped_test_decisions_total');
    expect(b).toMatch(/^http_request_duration_seconds_count\{method="GET",route="\/second",status="200"\} 2$/m);
    expect(b).not.toContain('route="/first"');
    expect(b).toMatch(/^scoped_test_decisions_total\{decision="debited"\} 4$/m);
    expect(b).not.toContain('scoped_test_saga_seconds');
    // The process's own figures (CPU, memory) are the shared process's, shown by each.
    expect(a).toContain('process_cpu_user_seconds_total');
    expect(b).toContain('process_cpu_user_seconds_total');
  });
});
