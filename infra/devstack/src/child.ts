import { type ChildProcess, spawn } from 'node:child_process';
import { createInterface } from 'node:readline';

export type ChildSpec = {
  name: string;
  /** The folder the child runs in (its package's). */
  cwd: string;
  /** The JavaScript file node runs (compiled by compile.ts), with source maps on for its stack traces. */
  script: string;
  /** Written to the child's stdin, which is then closed (otherwise stdin is /dev/null). */
  input?: string;
  args?: string[];
  /** Options for node itself, before the script (e.g. the heap limit). */
  nodeArgs?: string[];
  env: Record<string, string>;
};

export type ChildExit = { code: number | null; signal: NodeJS.Signals | null };

type LineWatcher = { test: (record: Record<string, unknown>) => boolean; resolve: (record: Record<string, unknown>) => void; alive: () => void };

/**
 * One child process with its output relayed line by line. The devstack waits on lines the child
 * logs (an embedded server's `listening`) or on its HTTP readiness, and stops it with SIGTERM,
 * then SIGKILL if it does not exit in time.
 */
export class ManagedChild {
  readonly exited: Promise<ChildExit>;
  private readonly process: ChildProcess;
  private readonly watchers = new Set<LineWatcher>();
  private exit: ChildExit | undefined;

  constructor(
    readonly spec: ChildSpec,
    relay: (line: string, stream: 'stdout' | 'stderr') => void,
  ) {
    this.process = spawn(process.execPath, [...(spec.nodeArgs ?? []), '--enable-source-maps', spec.script, ...(spec.args ?? [])], {
      cwd: spec.cwd,
      env: spec.env,
      stdio: [spec.input === undefined ? 'ignore' : 'pipe', 'pipe', 'pipe'],
    });
    if (spec.input !== undefined) {
      // A child that dies before reading it closes the pipe: its exit is what matters, not this error.
      this.process.stdin!.on('error', () => undefined);
      this.process.stdin!.end(spec.input);
    }
    for (const stream of ['stdout', 'stderr'] as const) {
      createInterface({ input: this.process[stream]! }).on('line', (line) => {
        relay(line, stream);
        this.notify(line);
      });
    }
    this.exited = new Promise((resolve) => {
      this.process.once('exit', (code, signal) => {
        this.exit = { code, signal };
        resolve(this.exit);
      });
      this.process.once('error', () => {
        this.exit = { code: 127, signal: null };
        resolve(this.exit);
      });
    });
  }

  get pid(): number | undefined {
    return this.process.pid;
  }

  get running(): boolean {
    return this.exit === undefined;
  }

  /**
   * Resolves with the first JSON log record that passes the test; rejects if the child exits first,
   * or stays silent for `timeoutMs`: every line it writes meanwhile restarts that clock, so a server
   * that reports progress (the embedded MongoDB loading a large data set) gets the time it needs.
   */
  waitForRecord(test: (record: Record<string, unknown>) => boolean, timeoutMs: number): Promise<Record<string, unknown>> {
    return new Promise((resolve, reject) => {
      const silent = () => finish(() => reject(new Error(`${this.spec.name} did not become ready: no sign of it for ${timeoutMs} ms`)));
      let timer = setTimeout(silent, timeoutMs);
      const watcher: LineWatcher = {
        test,
        resolve: (record) => finish(() => resolve(record)),
        alive: () => {
          clearTimeout(timer);
          timer = setTimeout(silent, timeoutMs);
        },
      };
      const finish = (settle: () => void) => {
        clearTimeout(timer);
        this.watchers.delete(watcher);
        settle();
      };
      this.watchers.add(watcher);
      void this.exited.then((exit) =>
        finish(() => reject(new Error(`${this.spec.name} exited during start-up (${describeExit(exit)})`))),
      );
    });
  }

  /** SIGTERM, then SIGKILL after graceMs. Resolves once the process is gone. */
  async stop(graceMs: number): Promise<ChildExit> {
    if (this.exit) return this.exit;
    this.process.kill('SIGTERM');
    const timer = setTimeout(() => this.process.kill('SIGKILL'), graceMs);
    const exit = await this.exited;
    clearTimeout(timer);
    return exit;
  }

  /** Last resort on the way out: no child may outlive the devstack. */
  killNow(): void {
    if (this.running) this.process.kill('SIGKILL');
  }

  private notify(line: string): void {
    if (this.watchers.size === 0) return;
    for (const watcher of this.watchers) watcher.alive();
    if (!line.startsWith('{')) return;
    let record: Record<string, unknown>;
    try {
      record = JSON.parse(line) as Record<string, unknown>;
    } catch {
      return;
    }
    for (const watcher of [...this.watchers]) if (watcher.test(record)) watcher.resolve(record);
  }
}

export function describeExit(exit: ChildExit): string {
  return exit.signal ? `signal ${exit.signal}` : `exit code ${exit.code}`;
}
