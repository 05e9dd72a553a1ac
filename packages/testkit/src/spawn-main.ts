import { type ChildProcess, spawn } from 'node:child_process';
import { testServiceEnv } from './service-env.ts';

export type MainProcess = {
  child: ChildProcess;
  exited: Promise<number | null>;
  stdout(): string;
  stderr(): string;
  /** The JSON log records printed so far. */
  records(): Array<Record<string, unknown>>;
  /** Resolves with the first record whose `msg` is `msg`; fails if the process ends first. */
  waitFor(msg: string, timeoutMs?: number): Promise<Record<string, unknown>>;
};

const running = new Set<ChildProcess>();

/**
 * Runs a package's `src/main.ts` as its `npm start` does (`node --import tsx`, in the package folder,
 * with only PATH, `testServiceEnv` and `env`), so its start-up, log lines and exit codes can be checked.
 */
export function spawnMain(packageDir: string, env: Record<string, string>): MainProcess {
  const child = spawn(process.execPath, ['--import', 'tsx', 'src/main.ts'], {
    cwd: packageDir,
    env: { PATH: process.env.PATH ?? '', ...testServiceEnv, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  running.add(child);
  let stdout = '';
  let stderr = '';
  child.stdout!.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
  child.stderr!.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  const exited = new Promise<number | null>((resolve) =>
    child.once('exit', (code) => {
      running.delete(child);
      resolve(code);
    }),
  );
  const records = () =>
    stdout
      .split('\n')
      .filter((line) => line.startsWith('{'))
      .map((line) => JSON.parse(line) as Record<string, unknown>);
  const waitFor = async (msg: string, timeoutMs = 45_000) => {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const record = records().find((r) => r.msg === msg);
      if (record) return record;
      if (child.exitCode !== null || Date.now() > deadline) throw new Error(`no "${msg}" line; stderr: ${stderr}; stdout: ${stdout}`);
      await new Promise((r) => setTimeout(r, 100));
    }
  };
  return { child, exited, stdout: () => stdout, stderr: () => stderr, records, waitFor };
}

/** Kills every spawned main still running: for afterAll, so no test leaves a process behind. */
export function killMains(): void {
  for (const child of running) child.kill('SIGKILL');
}
