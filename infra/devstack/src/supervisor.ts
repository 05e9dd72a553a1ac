import { ManagedChild, type ChildSpec, describeExit } from './child.ts';
import { type Formatter, lineFormatter } from './format.ts';
import { pickPort } from './ports.ts';
import { recordLevel } from './records.ts';

const STOP_GRACE_MS = 10_000;

/** What the supervisor needs of the devstack: where lines go, when a stop is asked for, how long a start may take. */
export type SupervisorOptions = {
  print(line: string): void;
  colour: boolean;
  /** Width the children's names are padded to in the log. */
  nameWidth: number;
  /** Resolves when the operator asks to stop (Ctrl-C, SIGTERM). */
  stopRequested: Promise<unknown>;
  readyTimeoutMs: number;
  log(message: string): void;
  warn(message: string): void;
};

/** How a child was started: the same again after it died, how to tell it is ready, and what goes on meanwhile. */
type Respawn = { again: () => ManagedChild; ready: (child: ManagedChild) => Promise<unknown>; meanwhile: string };

/** A started child and how to start it again. */
export type Spawned = { child: ManagedChild; make: () => ManagedChild };

/**
 * The devstack's children: starts them, starts one again when it dies on its own (with a growing
 * delay, giving up after five crashes within a minute), and stops them all, last started first.
 */
export class Supervisor {
  private readonly children: ManagedChild[] = [];
  private readonly respawns = new Map<ManagedChild, Respawn>();
  private readonly crashes = new Map<string, number[]>();

  constructor(private readonly options: SupervisorOptions) {}

  /** Kills every child at once (the devstack itself is exiting). */
  readonly killAll = () => this.children.forEach((child) => child.killNow());

  /**
   * Starts a child whose lines are shown with its name (only those at `shownFrom` or above, when
   * given: a level value as pino writes it).
   */
  spawn(spec: ChildSpec, index: number, shownFrom = 0): Spawned {
    const format = this.formatter(spec.name, index);
    return this.spawnRelayed(spec, (line) => {
      if (shownFrom === 0 || recordLevel(line) >= shownFrom) this.options.print(format(line));
    });
  }

  /** Starts a child whose lines the caller formats itself (the shared apps process names each line's app). */
  spawnRelayed(spec: ChildSpec, relay: (line: string) => void): Spawned {
    const make = () => new ManagedChild(spec, relay);
    const child = make();
    this.children.push(child);
    return { child, make };
  }

  /** A formatter for lines of `name` at colour `index`, padded as the children's are. */
  formatter(name: string, index: number): Formatter {
    return lineFormatter(name, index, this.options.nameWidth, this.options.colour);
  }

  /**
   * From now on a death of `child` starts it again with `make`, and waits for `ready`; `meanwhile`
   * tells the operator what still works while it is down.
   */
  supervise({ child, make }: Spawned, ready: (child: ManagedChild) => Promise<unknown>, meanwhile = 'the others keep serving'): void {
    const again = () => {
      const next = make();
      this.respawns.set(next, { again, ready, meanwhile });
      return next;
    };
    this.respawns.set(child, { again, ready, meanwhile });
  }

  /**
   * Races a start-up step against a stop request, so Ctrl-C during start-up is honoured at once.
   * Resolves `stopped` when the request won.
   */
  unlessStopped<T>(step: Promise<T>): Promise<{ value: T } | 'stopped'> {
    return Promise.race([step.then((value) => ({ value })), this.options.stopRequested.then(() => 'stopped' as const)]);
  }

  /**
   * Starts a child listening on `port` and resolves once it logs its own `listening` record, with
   * the port that record names: readiness is taken from the child itself, never from whoever
   * answers on the port. Another devstack starting at the same moment can take a free port between
   * the check and the bind; the child then exits during start-up and is started again on another
   * free port (not when the operator fixed the port: BFF_PORT).
   */
  async startListening(
    name: string,
    port: number,
    fixed: boolean,
    host: string,
    spawnOn: (port: number) => Spawned,
  ): Promise<(Spawned & { port: number; record: Record<string, unknown> }) | 'stopped'> {
    for (let attempt = 1; ; attempt++) {
      const spawned = spawnOn(port);
      const listening = spawned.child.waitForRecord((r) => r.msg === 'listening', this.options.readyTimeoutMs).then(
        (record) => ({ record }),
        (error: Error) => ({ error }),
      );
      const outcome = await this.unlessStopped(listening);
      if (outcome === 'stopped') return 'stopped';
      if ('record' in outcome.value) {
        const bound = outcome.value.record.port;
        return { ...spawned, port: typeof bound === 'number' ? bound : port, record: outcome.value.record };
      }
      if (fixed || attempt >= 3 || spawned.child.running) throw outcome.value.error;
      this.children.splice(this.children.indexOf(spawned.child), 1);
      const next = await pickPort(0, host);
      this.options.warn(`${name}: could not listen on port ${port} (${outcome.value.error.message}); trying port ${next}`);
      port = next;
    }
  }

  /**
   * Runs until a stop is asked for (`stopped`) or a child keeps dying (`gave up`, every child
   * stopped). A child that died on its own is started again on the same port and data, while the
   * others keep serving (the BFF answers 503 for what the missing one serves).
   */
  async watch(): Promise<'stopped' | 'gave up'> {
    // Signal listeners do not keep Node's event loop alive; this handle does until we stop.
    const keepAlive = setInterval(() => undefined, 1 << 30);
    try {
      for (;;) {
        const died = Promise.race(this.children.map((child) => child.exited.then((exit) => ({ child, exit }))));
        const outcome = await Promise.race([died, this.options.stopRequested.then(() => undefined)]);
        if (!outcome) return 'stopped';
        const result = await this.restart(outcome.child, outcome.exit);
        if (result === 'stopped') return 'stopped';
        if (result === 'gave up') {
          this.options.warn(`${outcome.child.spec.name} keeps exiting (${describeExit(outcome.exit)}); stopping everything`);
          await this.stopAll();
          return 'gave up';
        }
      }
    } finally {
      clearInterval(keepAlive);
    }
  }

  /** Stops every child, last started first. */
  async stopAll(): Promise<void> {
    for (const child of [...this.children].reverse()) {
      const exit = child.running ? await child.stop(STOP_GRACE_MS) : await child.exited;
      this.options.log(`${child.spec.name} stopped (${describeExit(exit)})`);
    }
  }

  /**
   * Starts a dead child again after a delay that doubles with each crash of it in the last minute;
   * after five, gives up (a restart loop helps no one).
   */
  private async restart(dead: ManagedChild, exit: Awaited<ManagedChild['exited']>): Promise<'restarted' | 'gave up' | 'stopped'> {
    const name = dead.spec.name;
    const recent = [...(this.crashes.get(name) ?? []).filter((t) => Date.now() - t < 60_000), Date.now()];
    this.crashes.set(name, recent);
    if (recent.length > 5) return 'gave up';
    const delayMs = Math.min(500 * 2 ** (recent.length - 1), 15_000);
    const respawn = this.respawns.get(dead)!;
    this.options.warn(`${name} exited unexpectedly (${describeExit(exit)}); restarting it in ${delayMs} ms — ${respawn.meanwhile}`);
    const waited = await this.unlessStopped(new Promise((r) => setTimeout(r, delayMs)));
    if (waited === 'stopped') return 'stopped';
    const next = respawn.again();
    this.children[this.children.indexOf(dead)] = next;
    const ready = await this.unlessStopped(respawn.ready(next).then(() => true, () => false));
    if (ready === 'stopped') return 'stopped';
    if (ready.value) this.options.log(`${name} restarted`);
    return 'restarted';
  }
}

/** Resolves once `url` answers 2xx; fails when the child exits first or `timeoutMs` pass. */
export async function waitForHttpReady(child: ManagedChild, url: string, timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (!child.running) throw new Error(`${child.spec.name} exited during start-up (${describeExit(await child.exited)})`);
    try {
      const res = await fetch(url, { signal: AbortSignal.timeout(1000) });
      if (res.ok) return;
    } catch {
      // not listening yet
    }
    await new Promise((r) => setTimeout(r, 250));
  }
  throw new Error(`${child.spec.name} did not become ready within ${timeoutMs} ms`);
}
