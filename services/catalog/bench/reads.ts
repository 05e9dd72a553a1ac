/**
 * Public read throughput and latency over real HTTP, against the embedded Kafka and MongoDB in
 * this process with the seeded catalogue: what the BFF sees when it asks for the order screen.
 * Usage: npm run bench [-- <requests per endpoint> <concurrency>]
 */
import { performance } from 'node:perf_hooks';
import { callerHeaders } from '@smm/testkit';
import { startCatalog, startInfra } from '../test/support.ts';

/** The BFF's credential for a guest, valid for the whole run. */
const guest = callerHeaders({ to: 'catalog' }, undefined, 3600);

const total = Number(process.argv[2] ?? 2000);
const concurrency = Number(process.argv[3] ?? 16);

async function measure(name: string, url: string, headers: Record<string, string> = {}) {
  const latencies: number[] = [];
  let next = 0;
  const started = performance.now();
  const worker = async () => {
    while (next < total) {
      next++;
      const t = performance.now();
      const res = await fetch(url, { headers: { ...guest, ...headers } });
      await res.arrayBuffer();
      if (res.status !== 200 && res.status !== 304) throw new Error(`${name}: status ${res.status}`);
      latencies.push(performance.now() - t);
    }
  };
  await Promise.all(Array.from({ length: concurrency }, worker));
  const seconds = (performance.now() - started) / 1000;
  latencies.sort((a, b) => a - b);
  const at = (q: number) => latencies[Math.min(latencies.length - 1, Math.floor(q * latencies.length))]!.toFixed(1);
  console.log(`${name.padEnd(28)} ${String(Math.round(total / seconds)).padStart(6)} req/s   p50 ${at(0.5)} ms   p99 ${at(0.99)} ms`);
}

const infra = await startInfra();
const catalog = await startCatalog(infra);
try {
  let t = performance.now();
  const first = await catalog.seed();
  console.log(`first seed: ${first.created} items in ${Math.round(performance.now() - t)} ms`);
  t = performance.now();
  await catalog.seed();
  console.log(`re-seed (nothing to do): ${Math.round(performance.now() - t)} ms`);
  console.log(`${total} requests per endpoint, ${concurrency} concurrent`);
  await measure('GET /services', `${catalog.base}/services`);
  await measure('GET /platforms', `${catalog.base}/platforms`);
  await measure('GET /notices', `${catalog.base}/notices`);
  await measure('GET /settings', `${catalog.base}/settings`);
  const etag = (await fetch(`${catalog.base}/settings/version`, { headers: guest })).headers.get('etag') ?? '';
  await measure('GET /settings (304)', `${catalog.base}/settings`, { 'if-none-match': etag });
} finally {
  await catalog.close();
  await infra.stop();
}
