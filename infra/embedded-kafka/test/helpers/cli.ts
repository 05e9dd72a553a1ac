import { spawn, type ChildProcess } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const PACKAGE_DIR = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');

export interface CliBroker {
  child: ChildProcess;
  port: number;
  brokers: string;
  stdout: () => string;
  stderr: () => string;
  exited: Promise<number | null>;
}

export function runCli(args: string[]): { child: ChildProcess; stdout: () => string; stderr: () => string; exited: Promise<number | null> } {
  const child = spawn(process.execPath, ['--import', 'tsx', 'src/main.ts', ...args], { cwd: PACKAGE_DIR, stdio: ['ignore', 'pipe', 'pipe'] });
  let stdout = '';
  let stderr = '';
  child.stdout?.on('data', (d: Buffer) => (stdout += d.toString()));
  child.stderr?.on('data', (d: Buffer) => (stderr += d.toString()));
  const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
  return { child, stdout: () => stdout, stderr: () => stderr, exited };
}

/** Starts the CLI on a free port and resolves once it logged its "listening" line. */
export async function startCli(dataDir: string, extra: string[] = []): Promise<CliBroker> {
  const run = runCli(['--port', '0', '--host', '127.0.0.1', '--data-dir', dataDir, ...extra]);
  const deadline = Date.now() + 20_000;
  for (;;) {
    const line = run
      .stdout()
      .split('\n')
      .find((l) => l.includes('"msg":"listening"'));
    if (line) {
      const port = (JSON.parse(line) as { port: number }).port;
      return { ...run, port, brokers: `127.0.0.1:${port}` };
    }
    if (run.child.exitCode !== null || Date.now() > deadline) {
      run.child.kill('SIGKILL');
      throw new Error(`broker CLI did not start: ${run.stderr()}`);
    }
    await new Promise((r) => setTimeout(r, 25));
  }
}
