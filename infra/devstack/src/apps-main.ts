// The devstack's one process for every service and the BFF (DEVSTACK_PROCESSES=shared, the default).
// Each app is still its own module with its own configuration, logger, database, Kafka principal,
// consumer groups, port and /metrics; they talk only over Kafka and HTTP, as in their own processes.
// The plan (which apps, each one's environment) arrives as JSON on stdin: the records hold secrets,
// which a command line would show to `ps`.
import { text } from 'node:stream/consumers';
import { type AppRoot, type Logger, type StartedApp, appLogger, createLogger, endServiceScopes, stopTracing, withServiceMetrics } from '@smm/platform';
import { type AppsPlan, appsPlan } from './apps-plan.ts';
import { pickPort } from './ports.ts';

// Imported inside each app's metrics scope (startApp), so what its modules declare at module level
// (order's saga histogram, wallet's decision counter) lands in its own registry.
const roots: Record<string, () => Promise<AppRoot>> = {
  auth: async () => (await import('@smm/auth/src/root.ts')).startAuthApp,
  catalog: async () => (await import('@smm/catalog/src/root.ts')).startCatalogApp,
  wallet: async () => (await import('@smm/wallet/src/root.ts')).startWalletApp,
  order: async () => (await import('@smm/order/src/root.ts')).startOrderApp,
  scheduler: async () => (await import('@smm/scheduler/src/root.ts')).startSchedulerApp,
  fulfillment: async () => (await import('@smm/fulfillment/src/root.ts')).startFulfillmentApp,
  support: async () => (await import('@smm/support/src/root.ts')).startSupportApp,
  bff: async () => (await import('@smm/bff/src/root.ts')).startBffApp,
};

const STOP_GRACE_MS = 10_000;

type Running = { name: string; logger: Logger; started: StartedApp };
const running: Running[] = [];

/**
 * The records the devstack waits for (`app ready`, `app failed`), at info whatever LOG_LEVEL says:
 * like the `listening` record, they are how the supervisor learns what happened.
 */
function announce(name: string, record: Record<string, unknown>, message: string): void {
  createLogger({ service: name, level: 'info' }).info(record, message);
}

async function waitReady(url: string, timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    try {
      if ((await fetch(`${url}/readyz`, { signal: AbortSignal.timeout(1000) })).ok) return;
    } catch {
      // not answering yet
    }
    if (Date.now() > deadline) throw new Error(`it did not answer /readyz within ${timeoutMs} ms`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

/** The port a start-up could not bind (taken meanwhile, e.g. by another devstack), if that is why it failed. */
function portTaken(error: unknown): boolean {
  const code = (error as NodeJS.ErrnoException).code ?? ((error as Error).cause as NodeJS.ErrnoException | undefined)?.code;
  return code === 'EADDRINUSE';
}

/**
 * Starts one app in a metrics scope of its own. Another devstack starting at the same moment can
 * take its port between the devstack's check and the bind: then it starts again on any free port
 * (not when the operator fixed the port: BFF_PORT), as separate processes are.
 */
async function startApp(app: AppsPlan['apps'][number], urls: Record<string, string>): Promise<{ started: StartedApp; url: string; logger: Logger }> {
  const load = roots[app.name];
  if (!load) throw new Error(`no composition root for ${app.name}`);
  let env: Record<string, string> = { ...app.env, ...urls };
  for (let attempt = 1; ; attempt++) {
    const logger = appLogger(app.name, env);
    try {
      const started = await withServiceMetrics(async () => (await load())(env, logger));
      return { started, url: `http://${env.HOST ?? '127.0.0.1'}:${started.port ?? env.PORT}`, logger };
    } catch (error) {
      if (app.fixedPort || attempt >= 3 || !portTaken(error)) throw error;
      const port = String(await pickPort(0, env.HOST ?? '127.0.0.1'));
      announce(app.name, { port: env.PORT }, `could not listen on port ${env.PORT} (taken); trying port ${port}`);
      env = { ...env, PORT: port, ...(app.baseUrlFollowsPort && { PUBLIC_BASE_URL: `http://${env.HOST}:${port}` }) };
    }
  }
}

async function stopAll(): Promise<void> {
  // The public entry first, as the devstack stops separate processes (last started, first stopped);
  // the services then together: none waits for another to stop.
  const bff = running.filter((r) => r.name === 'bff');
  const services = running.filter((r) => r.name !== 'bff');
  const stop = async (r: Running) => {
    for (const step of r.started.shutdownSteps) {
      try {
        await step.run();
      } catch (error) {
        r.logger.error({ err: error, step: step.name }, 'shutdown step failed');
      }
    }
    r.logger.info('stopped');
  };
  for (const r of bff) await stop(r);
  await Promise.all(services.map(stop));
  running.length = 0;
  await stopTracing();
}

let stopping = false;
const onSignal = () => {
  // A second signal while stopping: exit at once.
  if (stopping) process.exit(1);
  stopping = true;
  setTimeout(() => process.exit(1), STOP_GRACE_MS).unref();
  void stopAll().then(
    () => process.exit(0),
    () => process.exit(1),
  );
};
process.once('SIGINT', onSignal);
process.once('SIGTERM', onSignal);

const plan = appsPlan(await text(process.stdin));
const urls: Record<string, string> = {};
for (const app of plan.apps) {
  if (stopping) break;
  let outcome: { started: StartedApp; url: string; logger: Logger };
  try {
    outcome = await startApp(app, urls);
    running.push({ name: app.name, logger: outcome.logger, started: outcome.started });
    await waitReady(outcome.url, plan.readyTimeoutMs);
  } catch (error) {
    const reason = error instanceof Error ? error.message : String(error);
    announce(app.name, { app: app.name, reason }, 'app failed');
    await stopAll();
    process.exit(1);
  }
  // Later apps are handed this one's address, as the devstack does for separate processes.
  urls[`${app.name.toUpperCase()}_SERVICE_URL`] = outcome.url;
  announce(app.name, { app: app.name, url: outcome.url }, 'app ready');
}
// Everything each app records was bound to its registry while it started.
endServiceScopes();
