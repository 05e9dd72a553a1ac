import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import path from 'node:path';

/**
 * Debian's python3 with python3-kafka, python3-confluent-kafka and python3-zstandard (.ci/run
 * installs them). A python3 first on PATH (pyenv) would not see the Debian packages.
 */
export const PYTHON = '/usr/bin/python3';
const SCRIPTS = path.join(import.meta.dirname, '..', 'python');

export function pythonHas(module: string): boolean {
  return spawnSync(PYTHON, ['-c', `import ${module}`]).status === 0;
}

/** Runs a script of test/python to completion and returns its JSON lines (killed after timeoutMs). */
export function runPython(script: string, args: string[], timeoutMs = 30_000): Promise<Record<string, unknown>[]> {
  return new Promise((resolve, reject) => {
    const child = spawn(PYTHON, [path.join(SCRIPTS, script), ...args], { stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`${script} ${args.join(' ')} timed out after ${timeoutMs} ms\nstdout: ${stdout}\nstderr: ${stderr}`));
    }, timeoutMs);
    child.on('error', reject);
    child.on('close', (code) => {
      clearTimeout(timer);
      if (code !== 0) reject(new Error(`${script} exited ${code}\nstdout: ${stdout}\nstderr: ${stderr}`));
      else resolve(parseLines(stdout));
    });
  });
}

function parseLines(text: string): Record<string, unknown>[] {
  return text
    .split('\n')
    .filter((l) => l.startsWith('{'))
    .map((l) => JSON.parse(l) as Record<string, unknown>);
}

/** A long-running script (a group member): its JSON lines so far; `stop` closes its stdin and waits. */
export interface PythonProcess {
  child: ChildProcess;
  events: () => Record<string, unknown>[];
  stop: (timeoutMs?: number) => Promise<void>;
}

export function startPython(script: string, args: string[]): PythonProcess {
  const child = spawn(PYTHON, [path.join(SCRIPTS, script), ...args], { stdio: ['pipe', 'pipe', 'pipe'] });
  let stdout = '';
  let stderr = '';
  child.stdout?.on('data', (d: Buffer) => (stdout += d.toString()));
  child.stderr?.on('data', (d: Buffer) => (stderr += d.toString()));
  const exited = new Promise<number | null>((resolve) => child.on('close', resolve));
  return {
    child,
    events: () => parseLines(stdout),
    stop: async (timeoutMs = 15_000) => {
      child.stdin?.end();
      const timer = setTimeout(() => child.kill('SIGKILL'), timeoutMs);
      const code = await exited;
      clearTimeout(timer);
      if (code !== 0) throw new Error(`${script} exited ${code}\nstdout: ${stdout}\nstderr: ${stderr}`);
    },
  };
}
