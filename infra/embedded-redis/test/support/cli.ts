// Spawns the CLI the way the devstack launcher does and waits for its "listening" line.
import { spawn } from 'node:child_process';
import type { ChildProcess } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const PKG = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
export const MAIN = path.join(PKG, 'src/main.ts');

export interface Spawned {
  child: ChildProcess;
  port: number;
  stdoutLines: string[];
  /** Sends a signal and resolves with the exit code. */
  stop(signal?: NodeJS.Signals): Promise<number | null>;
}

export interface Exited {
  code: number | null;
  stdout: string;
  stderr: string;
}

const live = new Set<ChildProcess>();
/** Safety net for afterAll: kills any CLI child a failed test left behind. */
export function killAll(): void {
  for (const c of live) c.kill('SIGKILL');
  live.clear();
}

function start(args: string[], env: NodeJS.ProcessEnv): ChildProcess {
  const child = spawn(process.execPath, ['--import', 'tsx', MAIN, ...args], {
    cwd: PKG,
    env: { ...process.env, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  live.add(child);
  child.on('exit', () => live.delete(child));
  return child;
}

export function spawnServer(args: string[], env: NodeJS.ProcessEnv = {}, timeoutMs = 15000): Promise<Spawned> {
  const child = start(args, env);
  const lines: string[] = [];
  let stderr = '';
  const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
  return new Promise((resolve, reject) => {
    const t = setTimeout(() => reject(new Error(`no listening line within ${timeoutMs} ms; stderr: ${stderr}`)), timeoutMs);
    let buf = '';
    child.stderr!.on('data', (d: Buffer) => (stderr += d.toString()));
    child.stdout!.on('data', (d: Buffer) => {
      buf += d.toString();
      let nl: number;
      while ((nl = buf.indexOf('\n')) !== -1) {
        const line = buf.slice(0, nl);
        buf = buf.slice(nl + 1);
        lines.push(line);
        const obj = JSON.parse(line) as { msg?: string; port?: number };
        if (obj.msg === 'listening' && typeof obj.port === 'number') {
          clearTimeout(t);
          const port = obj.port;
          resolve({
            child,
            port,
            stdoutLines: lines,
            stop: (signal = 'SIGTERM') => {
              child.kill(signal);
              return exited;
            },
          });
        }
      }
    });
    child.on('exit', (code) => {
      clearTimeout(t);
      reject(new Error(`exited with ${code} before listening; stderr: ${stderr}`));
    });
  });
}

/** Runs the CLI expecting it to exit on its own (bad options). */
export function runToExit(args: string[], env: NodeJS.ProcessEnv = {}, timeoutMs = 15000): Promise<Exited> {
  const child = start(args, env);
  let stdout = '';
  let stderr = '';
  child.stdout!.on('data', (d: Buffer) => (stdout += d.toString()));
  child.stderr!.on('data', (d: Buffer) => (stderr += d.toString()));
  return new Promise((resolve, reject) => {
    const t = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error('CLI did not exit'));
    }, timeoutMs);
    child.on('exit', (code) => {
      clearTimeout(t);
      resolve({ code, stdout, stderr });
    });
  });
}

/** Runs redis-cli with arguments; resolves with trimmed stdout. */
export function redisCli(port: number, args: string[]): Promise<string> {
  return new Promise((resolve, reject) => {
    const child = spawn('redis-cli', ['-p', String(port), ...args], { stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    let err = '';
    child.stdout.on('data', (d: Buffer) => (out += d.toString()));
    child.stderr.on('data', (d: Buffer) => (err += d.toString()));
    const t = setTimeout(() => child.kill('SIGKILL'), 10000);
    child.on('exit', (code) => {
      clearTimeout(t);
      if (code === 0) resolve(out.replace(/\n$/, ''));
      else reject(new Error(`redis-cli exited ${code}: ${err}`));
    });
  });
}
