// npm run bench: starts a fresh embedded server (the CLI, as the devstack runs it) and runs
// redis-benchmark against it and against the real Redis at 127.0.0.1:6379, without and with
// pipelining, then prints the figures side by side.
import { spawn } from 'node:child_process';
import type { ChildProcess } from 'node:child_process';
import net from 'node:net';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { measureHotPath, measureListEnds } from './hotpath.ts';

const REQUESTS = Number(process.env.BENCH_REQUESTS ?? 100000);
const OPS = ['SET', 'GET', 'LPUSH', 'RPUSH', 'LPOP', 'RPOP'];
const REAL_PORT = 6379;
const MAIN = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../src/main.ts');

function startEmbedded(): Promise<{ child: ChildProcess; port: number }> {
  const child = spawn(process.execPath, ['--import', 'tsx', MAIN, '--port', '0'], {
    stdio: ['ignore', 'pipe', 'inherit'],
    env: { ...process.env, LOG_LEVEL: 'info' },
  });
  return new Promise((resolve, reject) => {
    let buf = '';
    const t = setTimeout(() => reject(new Error('embedded server did not start within 15 s')), 15000);
    child.stdout!.on('data', (d: Buffer) => {
      buf += d.toString();
      const m = /"port":(\d+),[^\n]*"msg":"listening"|"msg":"listening"[^\n]*"port":(\d+)/.exec(buf);
      if (m) {
        clearTimeout(t);
        resolve({ child, port: Number(m[1] ?? m[2]) });
      }
    });
    child.on('exit', (code) => reject(new Error(`embedded server exited with ${code}`)));
  });
}

function reachable(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const s = net.connect(port, '127.0.0.1');
    const done = (ok: boolean): void => {
      s.destroy();
      resolve(ok);
    };
    s.setTimeout(500, () => done(false));
    s.on('connect', () => s.write('PING\r\n'));
    s.on('data', (d) => done(d.toString().startsWith('+PONG')));
    s.on('error', () => done(false));
  });
}

/** Runs redis-benchmark -q and returns requests per second by op ({ SET: rps, ... }). */
function benchmark(port: number, pipeline: number, requests = REQUESTS): Promise<Record<string, number>> {
  const args = ['-p', String(port), '-t', OPS.join(',').toLowerCase(), '-q', '-n', String(requests)];
  if (pipeline > 1) args.push('-P', String(pipeline));
  return new Promise((resolve, reject) => {
    const child = spawn('redis-benchmark', args, { stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    child.stdout.on('data', (d: Buffer) => (out += d.toString()));
    child.stderr.on('data', (d: Buffer) => (out += d.toString()));
    const t = setTimeout(() => child.kill('SIGKILL'), 120000);
    child.on('exit', (code) => {
      clearTimeout(t);
      const res: Record<string, number> = {};
      for (const m of out.matchAll(/(SET|GET|LPUSH|RPUSH|LPOP|RPOP): ([\d.]+) requests per second/g)) res[m[1]!] = Number(m[2]);
      if (code !== 0 || Object.keys(res).length === 0) reject(new Error(`redis-benchmark failed (${code}): ${out.slice(-300)}`));
      else resolve(res);
    });
  });
}

const fmt = (n: number | undefined): string => (n === undefined ? '-' : Math.round(n).toLocaleString('en-US'));

const { child, port } = await startEmbedded();
const realUp = await reachable(REAL_PORT);
const rows: string[] = [];
try {
  // One short unrecorded pass per server first: a fresh Node process runs unoptimised code for
  // its first few hundred thousand requests, which would otherwise be charged to SET (run first).
  await benchmark(port, 16, 50000);
  if (realUp) await benchmark(REAL_PORT, 16, 50000);
  for (const pipeline of [1, 16]) {
    const emb = await benchmark(port, pipeline);
    const real = realUp ? await benchmark(REAL_PORT, pipeline) : undefined;
    for (const op of OPS) {
      const ratio = real?.[op] !== undefined && emb[op] !== undefined ? `${((emb[op] / real[op]) * 100).toFixed(0)}%` : '-';
      rows.push(
        `| ${op} | ${pipeline === 1 ? 'no' : `-P ${pipeline}`} | ${fmt(emb[op])} | ${realUp ? fmt(real?.[op]) : 'not reachable'} | ${ratio} |`,
      );
    }
  }
} finally {
  child.kill('SIGTERM');
}
console.log(`redis-benchmark -t ${OPS.join(',').toLowerCase()} -q -n ${REQUESTS} (requests per second)`);
console.log('| op | pipelining | embedded | real Redis 127.0.0.1:6379 | embedded/real |');
console.log('|----|------------|----------|---------------------------|---------------|');
for (const r of rows) console.log(r);
if (!realUp) console.log(`real Redis not reachable at 127.0.0.1:${REAL_PORT} — its column is empty`);

console.log('');
console.log('our own code per request, in process (parse + dispatch + reply, 16 requests per chunk):');
for (const r of measureHotPath()) {
  console.log(`  ${r.op}: ${r.nsPerRequest.toFixed(0)} ns/request (~${Math.round(1e9 / r.nsPerRequest).toLocaleString('en-US')} req/s before any network cost)`);
}
console.log('list ends in process (dispatch only), by length of the list already there — flat means O(1):');
for (const r of measureListEnds()) {
  console.log(`  ${r.size} elements: LPUSH+LPOP ${r.headNs.toFixed(0)} ns/pair, RPUSH+RPOP ${r.tailNs.toFixed(0)} ns/pair`);
}
