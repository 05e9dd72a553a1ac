// Runs the CLI as a child process, the way the devstack launcher will.
import { spawn } from 'node:child_process';
import type { ChildProcess } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const pkgDir = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

export interface CliServer {
  child: ChildProcess;
  port: number;
  stdout: () => string;
  stderr: () => string;
}

export function runCli(args: string[]): { child: ChildProcess; done: Promise<{ code: number | null; stdout: string; stderr: string }> } {
  const child = spawn(process.execPath, ['--import', 'tsx', 'src/main.ts', ...args], { cwd: pkgDir, stdio: ['ignore', 'pipe', 'pipe'] });
  let stdout = '';
  let stderr = '';
  child.stdout!.on('data', (d: Buffer) => (stdout += d.toString()));
  child.stderr!.on('data', (d: Buffer) => (stderr += d.toString()));
  const done = new Promise<{ code: number | null; stdout: string; stderr: string }>((resolve) =>
    child.on('exit', (code) => resolve({ code, stdout, stderr })),
  );
  return { child, done };
}

/** `nodeArgs` go to node itself (e.g. a heap limit), before the script. */
export async function startCli(args: string[], timeoutMs = 20_000, nodeArgs: string[] = []): Promise<CliServer> {
  const child = spawn(process.execPath, [...nodeArgs, '--import', 'tsx', 'src/main.ts', ...args], { cwd: pkgDir, stdio: ['ignore', 'pipe', 'pipe'] });
  let out = '';
  let err = '';
  child.stderr!.on('data', (d: Buffer) => (err += d.toString()));
  const port = await new Promise<number>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`CLI did not report listening: ${err}`)), timeoutMs);
    child.on('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`CLI exited with ${code}: ${err}`));
    });
    child.stdout!.on('data', (d: Buffer) => {
      out += d.toString();
      for (const line of out.split('\n')) {
        if (!line.includes('"msg":"listening"')) continue;
        clearTimeout(timer);
        resolve((JSON.parse(line) as { port: number }).port);
      }
    });
  });
  return { child, port, stdout: () => out, stderr: () => err };
}

export function stopCli(s: CliServer | undefined, signal: NodeJS.Signals = 'SIGTERM'): Promise<number | null> {
  if (!s || s.child.exitCode !== null || s.child.signalCode !== null) return Promise.resolve(s?.child.exitCode ?? null);
  return new Promise((resolve) => {
    s.child.once('exit', (code) => resolve(code));
    s.child.kill(signal);
  });
}
