import { spawn, spawnSync, type ChildProcess } from 'node:child_process';

/** Debian ships the binary as kcat (newer) or kafkacat (older); .ci/run installs it. */
export const KCAT = ['kcat', 'kafkacat'].find((bin) => spawnSync('sh', ['-c', `command -v ${bin}`]).status === 0) ?? 'kcat';

export interface KcatResult {
  code: number | null;
  stdout: string;
  stderr: string;
}

/** Runs kcat to completion (bounded by timeoutMs, after which it is killed and the test fails). */
export function kcat(args: string[], input?: string, timeoutMs = 15_000): Promise<KcatResult> {
  return new Promise((resolve, reject) => {
    const child = spawn(KCAT, args, { stdio: ['pipe', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`kcat ${args.join(' ')} timed out after ${timeoutMs} ms\nstdout: ${stdout}\nstderr: ${stderr}`));
    }, timeoutMs);
    child.on('error', reject);
    child.on('close', (code) => {
      clearTimeout(timer);
      resolve({ code, stdout, stderr });
    });
    child.stdin.end(input ?? '');
  });
}

/** A long-running kcat whose output is collected as it arrives. */
export function kcatBackground(args: string[]): { child: ChildProcess; output: () => { stdout: string; stderr: string } } {
  const child = spawn(KCAT, args, { stdio: ['ignore', 'pipe', 'pipe'] });
  let stdout = '';
  let stderr = '';
  child.stdout?.on('data', (d: Buffer) => (stdout += d.toString()));
  child.stderr?.on('data', (d: Buffer) => (stderr += d.toString()));
  return { child, output: () => ({ stdout, stderr }) };
}
