// Throughput and latency of the BFF's own work (JWT check, Redis cache, relaying), with local fake
// services answering at once, so the figures show the BFF's overhead and not the services'.
// Run: npm run bench (from bff/). Bounded: a fixed number of requests per scenario.
import { startHarness } from '../test/support/harness.ts';

const REQUESTS = Number(process.env.BENCH_REQUESTS ?? 3000);
const CONCURRENCY = Number(process.env.BENCH_CONCURRENCY ?? 16);

async function scenario(name: string, request: () => Promise<Response>): Promise<void> {
  for (let i = 0; i < 50; i++) await (await request()).arrayBuffer(); // warm-up
  const latencies: number[] = [];
  let next = 0;
  let non2xx = 0;
  const started = performance.now();
  await Promise.all(
    Array.from({ length: CONCURRENCY }, async () => {
      while (next < REQUESTS) {
        next++;
        const t = performance.now();
        const res = await request();
        await res.arrayBuffer();
        if (!res.ok) non2xx++;
        latencies.push(performance.now() - t);
      }
    }),
  );
  const seconds = (performance.now() - started) / 1000;
  latencies.sort((a, b) => a - b);
  const pct = (p: number) => latencies[Math.min(latencies.length - 1, Math.floor(latencies.length * p))]!.toFixed(2);
  console.log(`${name.padEnd(34)} ${String(Math.round(latencies.length / seconds)).padStart(6)} req/s   p50 ${pct(0.5)} ms   p99 ${pct(0.99)} ms   non-2xx ${non2xx}`);
}

const h = await startHarness({ revalidateSeconds: 3600 });
try {
  h.catalog.on('GET /settings', { headers: { etag: '"settings-1"' }, body: { version: 1, etag: '"settings-1"', items: [{ key: 'MAIN_COLOR', value: '#4F46E5' }], flags: {} } });
  h.catalog.on('GET /platforms', { body: [{ id: 1, text: '인스타그램', icon: 'instagram', visible: true, background: '#E1306C' }] });
  h.auth.on('GET /members/me', { body: { userId: 'member-1', id: 'kim', role: 'member', apiKey: null, referralCode: null } });
  h.wallet.on('GET /accounts/member-1', { body: { userId: 'member-1', point: 0, pointDeci: 0 } });
  // The fakes keep every request for tests; the bench has no use for them.
  for (const fake of [h.auth, h.catalog, h.wallet]) fake.requests.push = () => 0;
  const token = h.keys.member();
  console.log(`${REQUESTS} requests per scenario, ${CONCURRENCY} concurrent, node ${process.version}`);
  await scenario('GET /api/service/settings (cached)', () => fetch(`${h.url}/api/service/settings`));
  await scenario('GET /api/service/platforms (relay)', () => fetch(`${h.url}/api/service/platforms`));
  await scenario('GET /api/auth/profile (JWT + 2 calls)', () => fetch(`${h.url}/api/auth/profile`, { headers: { authorization: `Bearer ${token}` } }));
  await scenario('GET /api/admin/services (401)', () => fetch(`${h.url}/api/admin/services`));
} finally {
  await h.stop();
}
