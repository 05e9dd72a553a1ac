// CPU each devstack process spends with no traffic at all (polls, consumers' fetch loops, timers),
// per second — the floor under every per-order figure of bench:wrk at a low order rate.
// Run: npm run bench:idle -w @smm/bff   (IDLE_SECONDS, 20 by default; BENCH_PROFILE_DIR as bench:wrk)
import { processTree } from './process-tree.ts';
import { startDevstack } from './stack.ts';

const seconds = Number(process.env.IDLE_SECONDS ?? 20);
const stack = await startDevstack();
try {
  await new Promise((r) => setTimeout(r, 10_000)); // start-up work (replays, first polls) settles
  const before = processTree(stack.pid!);
  const profiled = process.env.BENCH_PROFILE_DIR ? before.filter((p) => p.name !== 'devstack') : [];
  for (const p of profiled) process.kill(p.pid, 'SIGUSR2');
  const started = Date.now();
  await new Promise((r) => setTimeout(r, seconds * 1000));
  for (const p of profiled) process.kill(p.pid, 'SIGUSR2');
  const after = processTree(stack.pid!);
  const elapsed = (Date.now() - started) / 1000;
  const rows = after
    .map((p) => ({ name: p.name, msPerSecond: (p.cpuMs - (before.find((b) => b.pid === p.pid)?.cpuMs ?? 0)) / elapsed }))
    .filter((p) => p.msPerSecond > 0)
    .sort((a, b) => b.msPerSecond - a.msPerSecond);
  const total = rows.reduce((s, p) => s + p.msPerSecond, 0);
  console.log(`idle CPU over ${elapsed.toFixed(0)} s, ms per second: ${rows.map((p) => `${p.name} ${p.msPerSecond.toFixed(1)}`).join(', ')} — total ${total.toFixed(1)} (${(total / 20).toFixed(1)} % of two cores)`);
} finally {
  await stack.stop();
}
