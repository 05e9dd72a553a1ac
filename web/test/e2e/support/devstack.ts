import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { testServiceEnv } from '@smm/testkit';

/** The repository root (the devstack runs from there, as `npm start` does). */
export const repoRoot = fileURLToPath(new URL('../../../../', import.meta.url));

export type Devstack = {
  /** Everything the devstack printed so far. */
  output(): string;
  /** The value of the first group of `pattern` in the output, or an error naming `what`. */
  find(pattern: RegExp, what: string): string;
  dataDir: string;
  stop(): Promise<void>;
};

/**
 * Starts the whole product exactly like `npm start` (`node infra/devstack/bin/start.mjs`
 * from the repository root; the devstack builds web/dist first when it is stale) in a throwaway
 * data directory, and resolves once it prints `ready`. It runs in a process group of its own, so
 * `stop()` — and, as a last resort, this process's exit — ends everything it started.
 */
export async function startDevstack(extraEnv: Record<string, string>, options: { timeoutMs?: number; prefix?: string } = {}): Promise<Devstack> {
  // The devstack prefers fixed ports and takes them when free: another devstack starting at the
  // same moment can take one between the check and the bind. Such a start is tried again.
  for (let attempt = 1; ; attempt++) {
    try {
      return await startOnce(extraEnv, options);
    } catch (error) {
      if (attempt >= 3 || !(error instanceof Error && /already in use/.test(error.message))) throw error;
    }
  }
}

async function startOnce(extraEnv: Record<string, string>, options: { timeoutMs?: number; prefix?: string }): Promise<Devstack> {
  const dataDir = mkdtempSync(join(tmpdir(), options.prefix ?? 'web-devstack-'));
  // testServiceEnv: its services stop in a fraction of a second each instead of ~5 s.
  const env: Record<string, string> = { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '/root', NO_COLOR: '1', DATA_DIR: dataDir, ...testServiceEnv, ...extraEnv };
  let output = '';
  const proc = spawn(process.execPath, ['infra/devstack/bin/start.mjs'], { cwd: repoRoot, env, stdio: ['ignore', 'pipe', 'pipe'], detached: true });
  proc.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
  proc.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
  const exited = new Promise<void>((resolve) => proc.once('exit', () => resolve()));
  const alive = () => proc.exitCode === null && proc.signalCode === null;
  const killGroup = (signal: NodeJS.Signals) => {
    try {
      if (proc.pid !== undefined) process.kill(-proc.pid, signal);
    } catch {
      // the group is gone already
    }
  };
  const onExit = () => killGroup('SIGKILL');
  process.once('exit', onExit);

  const stop = async () => {
    if (alive()) {
      proc.kill('SIGINT');
      const timer = setTimeout(() => killGroup('SIGKILL'), 20_000);
      await exited;
      clearTimeout(timer);
    }
    // Whatever of the group is left (a service that ignored its stop) goes too.
    killGroup('SIGKILL');
    process.off('exit', onExit);
    rmSync(dataDir, { recursive: true, force: true });
  };

  const find = (pattern: RegExp, what: string) => {
    const found = pattern.exec(output)?.[1];
    if (found === undefined) throw new Error(`devstack output has no ${what}:\n${output.slice(-4000)}`);
    return found;
  };

  const deadline = Date.now() + (options.timeoutMs ?? 170_000);
  while (!/ready — /.test(output)) {
    if (Date.now() > deadline || !alive()) {
      await stop();
      throw new Error(`devstack did not start:\n${output.slice(-6000)}`);
    }
    await new Promise((r) => setTimeout(r, 200));
  }
  return { output: () => output, find, dataDir, stop };
}
