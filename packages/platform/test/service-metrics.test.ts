import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, describe, expect, it } from 'vitest';
import { createHttpApp, createLogger, durationHistogram, flowCounter, withServiceMetrics } from '../src/index.ts';

const logger = createLogger({ service: 'scoped-metrics-test', level: 'silent' });
const servers: Server[] = [];
afterAll(() => servers.forEach((s) => s.close()));

// Declared at module level, as services declare theirs (order's saga histogram, wallet's decisions).
const sagaDuration = durationHistogram('scoped_test_saga_seconds', 'a flow of the first app', ['outcome']);
const decisions = flowCounter('scoped_test_decisions_total', 'a flow of the second app', ['decision']);

/** An app built inside a metrics scope of its own, as the devstack's shared process builds each service. */
async function scopedApp(route: string, work: () => void): Promise<string> {
  return withServiceMetrics(async () => {
    const app = createHttpApp({
      logger,
      serviceAuth: null,
      opsToken: 'ops',
      routes: (a) =>
        a.get(route, (_req, res) => {
          work();
          res.json({ ok: true });
        }),
    });
    const server = await new Promise<Server>((resolve) => {
      const s = app.listen(0, '127.0.0.1', () => resolve(s));
    });
    servers.push(server);
    return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
}

const metricsOf = async (base: string) => (await fetch(`${base}/metrics`, { headers: { authorization: 'Bearer ops' } })).text();

describe('services sharing one process (withServiceMetrics)', () => {
  it("each app's /metrics shows only what that app recorded", async () => {
    const first = await scopedApp('/first', () => sagaDuration.observeSince({ outcome: 'paid' }, new Date(Date.now() - 50)));
    const second = await scopedApp('/second', () => decisions.add({ decision: 'debited' }, 2));
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
