// A yardstick for the machine. This VM's speed moves between sessions by up to three times with the
// same code (one connection: 84.7 orders/s on 2026-11-29 04:20, 35–46 later that day), so the order
// figures are printed beside a fixed workload measured in the same minutes: an express JSON echo
// (this repository's express, one process) driven by wrk at one connection — requests per second and
// CPU per request. Passes on different days compare by their ratio to it, not by raw figures.
import { type ChildProcess, spawn, spawnSync } from 'node:child_process';
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

/** Runs the echo for `seconds` (after a 3 s warm-up) and returns its rate and CPU per request. */
export async function yardstick(seconds = 5): Promise<Yardstick> {
  const server: ChildProcess = spawn(process.execPath, ['-e', echoServer], { cwd: fileURLToPath(new URL('..', import.meta.url)), stdio: ['ignore', 'pipe', 'inherit'] });
  try {
    const port = await new Promise<string>((resolve, reject) => {
      server.stdout!.on('data', (c: Buffer) => {
        const found = /port (\d+)/.exec(c.toString())?.[1];
        if (found) resolve(found);
      });
      server.once('exit', (code) => reject(new Error(`the echo server exited (${code})`)));
    });
    const url = `http://127.0.0.1:${port}/echo`;
    wrkRate(url, 3);
    const cpu = () => processTree(server.pid!).find((p) => p.pid === server.pid)?.cpuMs ?? 0;
    const cpuBefore = cpu();
    const perSecond = wrkRate(url, seconds);
    const cpuAfter = cpu();
    return { perSecond, cpuMsPerRequest: (cpuAfter - cpuBefore) / (perSecond * seconds) };
  } finally {
    server.kill();
  }
}

export function describeYardstick(y: Yardstick): string {
  return `machine yardstick (express JSON echo, wrk 1 connection): ${y.perSecond.toFixed(0)} requests/s, ${y.cpuMsPerRequest.toFixed(3)} ms CPU per request`;
}
