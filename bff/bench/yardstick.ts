// A yardstick for the machine. This VM's speed moves between sessions by up to three times with the
// same code (one connection: 84.7 orders/s on 2026-11-29 04:20, 35–46 later that day), so the order
// figures are printed beside a fixed workload measured in the same minutes: an express JSON echo
// (this repository's express, one process) driven by wrk at one connection — requests per second and
// CPU per request. Passes on different days compare by their ratio to it, not by raw figures.
import { type ChildProcess, spawn, spawnSync } from 'node:child_process';
import http from 'node:http';
import { fileURLToPath } from 'node:url';
import { processTree } from './process-tree.ts';

const echoServer = `
const express = require('express');
const app = express();
app.use(express.json());
app.post('/echo', (req, res) => res.json({ ok: true, got: req.body }));
const server = app.listen(0, '127.0.0.1', () => console.log('port ' + server.address().port));
`;

export type Yardstick = { perSecond: number; cpuMsPerRequest: number };

function wrkRate(url: string, seconds: number): number {
  const script = fileURLToPath(new URL('./echo.lua', import.meta.url));
  const run = spawnSync('wrk', ['-t1', '-c1', `-d${seconds}s`, '-s', script, url], { encoding: 'utf8' });
  if (run.error) throw new Error(`wrk did not run (${run.error.message}); install it: apt-get install -y wrk`);
  const rate = /Requests\/sec:\s+([\d.]+)/.exec(run.stdout)?.[1];
  if (!rate) throw new Error(`wrk printed no rate:\n${run.stdout}\n${run.stderr}`);
  return Number(rate);
}

/** Starts the echo server, hands its URL and a reading of its CPU and wake-ups to `use`, and stops it. */
async function withEcho<T>(use: (url: string, usage: () => { cpuMs: number; wakeups: number }) => Promise<T>): Promise<T> {
  const server: ChildProcess = spawn(process.execPath, ['-e', echoServer], { cwd: fileURLToPath(new URL('..', import.meta.url)), stdio: ['ignore', 'pipe', 'inherit'] });
  try {
    const port = await new Promise<string>((resolve, reject) => {
      server.stdout!.on('data', (c: Buffer) => {
        const found = /port (\d+)/.exec(c.toString())?.[1];
        if (found) resolve(found);
      });
      server.once('exit', (code) => reject(new Error(`the echo server exited (${code})`)));
    });
    const usage = () => {
      const p = processTree(server.pid!).find((q) => q.pid === server.pid);
      return { cpuMs: p?.cpuMs ?? 0, wakeups: p?.wakeups ?? 0 };
    };
    return await use(`http://127.0.0.1:${port}/echo`, usage);
  } finally {
    server.kill();
  }
}

/** Runs the echo for `seconds` (after a 3 s warm-up) and returns its rate and CPU per request. */
export async function yardstick(seconds = 5): Promise<Yardstick> {
  return withEcho(async (url, usage) => {
    wrkRate(url, 3);
    const before = usage();
    const perSecond = wrkRate(url, seconds);
    const after = usage();
    return { perSecond, cpuMsPerRequest: (after.cpuMs - before.cpuMs) / (perSecond * seconds) };
  });
}

export type WakeCost = { rate: number; cpuMsPerRequest: number; wakeupsPerRequest: number; cpuMsPerWakeup: number };

/**
 * What a wake-up costs on this machine: the same echo, one request every 1/rate s (an idle process
 * woken for each, as every process of the stack is at a steady 100 orders/s), its CPU per request
 * and per event-loop wake-up. Back to back (the yardstick) the echo cost a sixth to a seventh of
 * this here on 2026-12-05 (0.15 against 1.0–1.18 ms): the same work costs more in a process woken
 * from idle to do it.
 */
export async function wakeCost(rate = 100, seconds = 5): Promise<WakeCost> {
  return withEcho(async (url, usage) => {
    const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
    const one = () =>
      new Promise<void>((resolve, reject) => {
        const req = http.request(url, { method: 'POST', agent, headers: { 'content-type': 'application/json' } }, (res) => {
          res.resume();
          res.on('end', resolve);
        });
        req.on('error', reject);
        req.end('{"ping":1}');
      });
    for (let i = 0; i < 200; i++) await one();
    const before = usage();
    const count = Math.round(rate * seconds);
    for (let i = 0; i < count; i++) {
      await one();
      await new Promise((r) => setTimeout(r, 1000 / rate));
    }
    const after = usage();
    agent.destroy();
    const cpuMs = after.cpuMs - before.cpuMs;
    const wakeups = after.wakeups - before.wakeups;
    return { rate, cpuMsPerRequest: cpuMs / count, wakeupsPerRequest: wakeups / count, cpuMsPerWakeup: wakeups > 0 ? cpuMs / wakeups : 0 };
  });
}

export function describeWakeCost(w: WakeCost): string {
  return `wake-up cost (the echo at ${w.rate} requests/s, each waking it): ${w.cpuMsPerRequest.toFixed(3)} ms CPU per request, ${w.wakeupsPerRequest.toFixed(1)} wake-ups per request, ${(w.cpuMsPerWakeup * 1000).toFixed(0)} µs CPU per wake-up`;
}

export function describeYardstick(y: Yardstick): string {
  return `machine yardstick (express JSON echo, wrk 1 connection): ${y.perSecond.toFixed(0)} requests/s, ${y.cpuMsPerRequest.toFixed(3)} ms CPU per request`;
}
