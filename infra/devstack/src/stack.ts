import { accessSync, constants, existsSync, mkdirSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import type { ManagedChild } from './child.ts';
import { type AppComponent, type InfraKind, apps, databaseUrl, embeddedServers, isBuilt } from './components.ts';
import { compileEntries } from './compile.ts';
import type { DevstackConfig } from './config.ts';
import type { AppsPlan } from './apps-plan.ts';
import { lineFormatter } from './format.ts';
import { levelValue, recordService } from './records.ts';
import { pickPort } from './ports.ts';
import { hasKafkaPrincipal, kafkaClientEnv } from './kafka-users.ts';
import { DevSecrets } from './secrets.ts';
import { Supervisor, waitForHttpReady } from './supervisor.ts';
import { buildWeb, webBuildState } from './web-build.ts';

/** A problem the operator must fix before the stack can start; printed as one line. */
export class StartupError extends Error {}

export type DevstackIo = {
  /** Where the devstack's own lines and the children's relayed lines go. */
  print(line: string): void;
  colour: boolean;
  /** Resolves when the operator asks to stop (Ctrl-C, SIGTERM). */
  stopRequested: Promise<NodeJS.Signals>;
};

/** Where everything but the BFF listens: nothing internal is reachable from another machine. */
const loopback = '127.0.0.1';
/** The shared process of every service and the BFF (DEVSTACK_PROCESSES=shared). */
const APPS = 'apps';
const nameWidth = Math.max(...[...embeddedServers.map((s) => s.kind), ...apps.map((a) => a.name), 'devstack'].map((n) => n.length));

export function ensureWritableDir(dir: string): void {
  try {
    // Created one level at a time: Node's recursive mkdir never returns for paths under /proc.
    const missing: string[] = [];
    for (let at = dir; !existsSync(at); at = dirname(at)) missing.unshift(at);
    for (const level of missing) mkdirSync(level);
    accessSync(dir, constants.W_OK);
  } catch (error) {
    throw new StartupError(`DATA_DIR ${dir} is not a writable directory (${(error as NodeJS.ErrnoException).code ?? 'error'})`);
  }
}

/**
 * Starts what exists of the product — embedded servers for unset infrastructure URLs, then every
 * built service and the BFF — waits for readiness, and runs until asked to stop or until a child
 * dies. Returns the exit code: 0 after a requested stop, 1 when something failed.
 */
export async function runDevstack(config: DevstackConfig, root: string, io: DevstackIo): Promise<number> {
  const dataDir = resolve(root, config.DATA_DIR);
  ensureWritableDir(dataDir);
  const say = lineFormatter('devstack', 0, nameWidth, io.colour);
  const log = (message: string) => io.print(say(JSON.stringify({ level: 30, time: Date.now(), msg: message })));
  const warn = (message: string) => io.print(say(JSON.stringify({ level: 40, time: Date.now(), msg: message })));

  const supervisor = new Supervisor({ print: io.print, colour: io.colour, nameWidth, stopRequested: io.stopRequested, readyTimeoutMs: config.READY_TIMEOUT_MS, log, warn });
  process.once('exit', supervisor.killAll);
  let stopSignal: NodeJS.Signals | undefined;
  void io.stopRequested.then((signal) => (stopSignal = signal));
  const unlessStopped = <T>(step: Promise<T>) => supervisor.unlessStopped(step);

  let secrets: DevSecrets;
  try {
    secrets = DevSecrets.load(dataDir, process.env);
  } catch (error) {
    throw new StartupError((error as Error).message);
  }

  const baseEnv: Record<string, string> = {};
  for (const [key, value] of Object.entries(process.env)) if (value !== undefined) baseEnv[key] = value;
  baseEnv.LOG_LEVEL = config.LOG_LEVEL;

  try {
    const infra = new Map<InfraKind, string>();
    const given: Record<string, string | undefined> = {
      KAFKA_BROKERS: config.KAFKA_BROKERS?.join(','),
      MONGO_URL: config.MONGO_URL,
      REDIS_URL: config.REDIS_URL,
    };
    // Every child runs from JavaScript compiled here, not through tsx (compile.ts says why).
    const entries: Record<string, string> = {};
    for (const server of embeddedServers) if (given[server.envVar] === undefined && isBuilt(root, server.dir)) entries[server.kind] = join(root, server.dir, 'src', 'main.ts');
    if (config.DEVSTACK_PROCESSES === 'shared') entries[APPS] = join(root, 'infra', 'devstack', 'src', 'apps-main.ts');
    else for (const app of apps) if (isBuilt(root, app.dir)) entries[app.name] = join(root, app.dir, 'src', 'main.ts');
    const compiling = Date.now();
    const scripts = await compileEntries(root, entries);
    log(`compiled ${Object.keys(entries).length} programs in ${Date.now() - compiling} ms (${relative(root, dirname(Object.values(scripts)[0] ?? root))})`);
    for (const [index, server] of embeddedServers.entries()) {
      const external = given[server.envVar];
      if (external !== undefined) {
        infra.set(server.kind, external);
        log(`${server.label}: using ${server.envVar}=${external}`);
        continue;
      }
      if (!isBuilt(root, server.dir)) {
        warn(`${server.label}: ${server.envVar} is not set and the embedded ${server.label} server is not built yet — set ${server.envVar} to use a real one`);
        continue;
      }
      // The embedded servers listen on loopback only, whatever HOST says (Kafka also checks SASL credentials and ACLs).
      // The devstack waits for the server's `listening` record (info), so a quieter LOG_LEVEL is
      // applied here, to what is shown, rather than to what the server writes.
      const quiet = levelValue(config.LOG_LEVEL) > levelValue('info');
      const serverEnv = quiet ? { ...baseEnv, LOG_LEVEL: 'info' } : baseEnv;
      const started = await supervisor.startListening(server.label, await pickPort(server.preferredPort, loopback), false, loopback, (port) =>
        supervisor.spawn(
          {
            name: server.kind,
            cwd: join(root, server.dir),
            script: scripts[server.kind]!,
            env: serverEnv,
            args: ['--host', loopback, '--port', String(port), '--data-dir', join(dataDir, server.kind), ...(server.args?.(dataDir, secrets) ?? [])],
            nodeArgs: server.nodeArgs?.(config) ?? [],
          },
          index + 1,
          quiet ? levelValue(config.LOG_LEVEL) : 0,
        ),
      );
      if (started === 'stopped') return await finish();
      const { port } = started;
      supervisor.supervise(started, (c) => c.waitForRecord((r) => r.msg === 'listening', config.READY_TIMEOUT_MS));
      const ready = { value: started.record };
      const address = server.address(loopback, port, ready.value);
      infra.set(server.kind, address);
      const heapLimit = typeof ready.value.heapLimitMb === 'number' ? `, memory for data ${ready.value.heapLimitMb.toLocaleString('en-US')} MB` : '';
      const note = server.note ? `; ${server.note}` : '';
      log(`${server.label}: embedded server ready at ${address} (data in ${join(dataDir, server.kind)}${heapLimit}${note})`);
    }

    // The BFF serves the built web app: build it first when the sources are newer than the build.
    const webDir = join(root, 'web');
    if (webBuildState(webDir) === 'build') {
      log('web: building the web app (sources changed since the last build)');
      const webLog = lineFormatter('web', 0, nameWidth, io.colour);
      const built = await unlessStopped(buildWeb(webDir, baseEnv, (line) => io.print(webLog(line))));
      if (built === 'stopped') return await finish();
      log('web: built');
    }

    const started: Array<{ app: AppComponent; url: string }> = [];
    // Only the public entry point (the BFF) listens where HOST says; the services stay on this
    // machine's loopback, so HOST=0.0.0.0 (compose) publishes nothing but the BFF.
    const hostOf = (app: AppComponent) => (app.public ? config.HOST : loopback);
    /** The environment an app gets, as a process of its own or in the shared one (less PORT and the later-known URLs). */
    const appEnv = (app: AppComponent, host: string): Record<string, string> => {
      // Readiness is read from the child's `listening` record, which a silent logger does not write.
      const env: Record<string, string> = { ...baseEnv, HOST: host, SERVICE_NAME: app.name, ...(baseEnv.LOG_LEVEL === 'silent' && { LOG_LEVEL: 'fatal' }) };
      if (infra.has('kafka')) env.KAFKA_BROKERS = infra.get('kafka')!;
      // On the embedded broker each app is its own principal; a given KAFKA_BROKERS keeps the environment's KAFKA_SASL_*.
      if (infra.has('kafka') && given.KAFKA_BROKERS === undefined && hasKafkaPrincipal(app.name)) Object.assign(env, kafkaClientEnv(app.name, secrets));
      if (infra.has('redis')) env.REDIS_URL = infra.get('redis')!;
      if (infra.has('mongo')) env.MONGO_URL = databaseUrl(infra.get('mongo')!, app.name);
      // Every service and the BFF share the service-credential secret; a deployment's own wins.
      env.SERVICE_AUTH_SECRET = baseEnv.SERVICE_AUTH_SECRET ?? secrets.serviceAuthSecret;
      Object.assign(env, app.env?.(secrets, baseEnv));
      return env;
    };
    const runnable = apps
      .map((app, index) => ({ app, index }))
      .filter(({ app }) => {
        if (!isBuilt(root, app.dir)) return false;
        const missing = app.needs.filter((kind) => !infra.has(kind));
        if (missing.length > 0) warn(`${app.name}: not started — needs ${missing.join(', ')}, which is not available`);
        return missing.length === 0;
      });

    if (config.DEVSTACK_PROCESSES === 'shared' && runnable.length > 0) {
      // One process for every service and the BFF (apps-main.ts): each gets the environment it
      // would get as a process of its own, and the shared process adds the addresses of those
      // before it as they become ready.
      const plan: AppsPlan = { readyTimeoutMs: config.READY_TIMEOUT_MS, apps: [] };
      for (const { app } of runnable) {
        const host = hostOf(app);
        const port = await appPort(app, config);
        const env: Record<string, string> = { ...appEnv(app, host), PORT: String(port) };
        // The API documentation shows the BFF's address; a deployment sets its own.
        if (app.public && baseEnv.PUBLIC_BASE_URL === undefined) env.PUBLIC_BASE_URL = `http://${host}:${port}`;
        plan.apps.push({ name: app.name, env, fixedPort: app.public === true && config.BFF_PORT !== undefined, baseUrlFollowsPort: app.public === true && baseEnv.PUBLIC_BASE_URL === undefined });
      }
      const formats = new Map(runnable.map(({ app, index }) => [app.name, supervisor.formatter(app.name, embeddedServers.length + index + 1)]));
      const ownFormat = supervisor.formatter(APPS, 0);
      // Lines are prefixed by the app that wrote them (a record's `service`), as separate processes' are.
      // An app's `app ready` record is for the devstack, which prints its own `ready at` line.
      const relay = (line: string) => {
        if (!line.includes('"msg":"app ready"')) io.print((formats.get(recordService(line) ?? '') ?? ownFormat)(line));
      };
      const shared = supervisor.spawnRelayed({ name: APPS, cwd: join(root, 'infra/devstack'), script: scripts[APPS]!, env: baseEnv, input: JSON.stringify(plan) }, relay);
      // Every app's record is awaited from the start: several can arrive in one chunk of output.
      const appsReady = (child: ManagedChild) =>
        plan.apps.map((app) => {
          const waiting = child.waitForRecord((r) => r.service === app.name && (r.msg === 'app ready' || r.msg === 'app failed'), config.READY_TIMEOUT_MS).then((record) => {
            if (record.msg === 'app failed') throw new Error(`${app.name} failed to start: ${String(record.reason)}`);
            return String(record.url);
          });
          waiting.catch(() => undefined);
          return waiting;
        });
      supervisor.supervise(shared, (c) => Promise.all(appsReady(c)), 'the embedded servers keep their data and connections');
      const waits = appsReady(shared.child);
      for (const [i, { app }] of runnable.entries()) {
        const ready = await unlessStopped(waits[i]!);
        if (ready === 'stopped') return await finish();
        const url = ready.value;
        // A restart of the shared process binds the same addresses, which the others were handed.
        const planned = plan.apps[i]!;
        planned.env.PORT = new URL(url).port;
        planned.fixedPort = true;
        if (planned.baseUrlFollowsPort) planned.env.PUBLIC_BASE_URL = url;
        started.push({ app, url });
        log(`${app.name}: ready at ${url}`);
        app.onReady?.(secrets, warn);
      }
    }

    for (const { app, index } of config.DEVSTACK_PROCESSES === 'each' ? runnable : []) {
      const host = hostOf(app);
      const env = appEnv(app, host);
      for (const other of started) env[`${other.app.name.toUpperCase()}_SERVICE_URL`] = other.url;
      const listening = await supervisor.startListening(app.name, await appPort(app, config), app.public === true && config.BFF_PORT !== undefined, host, (port) =>
        // The API documentation shows the BFF's address; a deployment sets its own.
        supervisor.spawn(
          {
            name: app.name,
            cwd: join(root, app.dir),
            script: scripts[app.name]!,
            env: { ...env, PORT: String(port), ...(app.public && { PUBLIC_BASE_URL: baseEnv.PUBLIC_BASE_URL ?? `http://${host}:${port}` }) },
          },
          embeddedServers.length + index + 1,
        ),
      );
      if (listening === 'stopped') return await finish();
      const url = `http://${host}:${listening.port}`;
      supervisor.supervise(listening, (c) => waitForHttpReady(c, `${url}/readyz`, config.READY_TIMEOUT_MS));
      const ready = await unlessStopped(waitForHttpReady(listening.child, `${url}/readyz`, config.READY_TIMEOUT_MS));
      if (ready === 'stopped') return await finish();
      started.push({ app, url });
      log(`${app.name}: ready at ${url}`);
      app.onReady?.(secrets, warn);
    }

    if (started.length === 0) {
      warn('no service or BFF is built yet (they arrive with later issues); only the infrastructure above is running');
    }
    const entry = started.find((s) => s.app.public);
    log(entry ? `ready — open ${entry.url}` : 'ready — press Ctrl-C to stop');

    if ((await supervisor.watch()) === 'gave up') return 1;
    return await finish();
  } catch (error) {
    warn(`start-up failed: ${(error as Error).message}`);
    await supervisor.stopAll();
    return 1;
  } finally {
    process.off('exit', supervisor.killAll);
  }

  async function finish(): Promise<number> {
    log(`stopping (${stopSignal ?? 'requested'})`);
    await supervisor.stopAll();
    log('stopped');
    return 0;
  }
}

/**
 * The BFF listens on BFF_PORT: exactly that port when the operator set it (a taken port is an
 * error), otherwise its preferred 8080 or, when 8080 is taken, any free port. Services take
 * any free port.
 */
async function appPort(app: AppComponent, config: DevstackConfig): Promise<number> {
  if (!app.public || config.BFF_PORT === undefined) return pickPort(app.preferredPort, app.public ? config.HOST : loopback);
  const port = await pickPort(config.BFF_PORT, config.HOST);
  if (config.BFF_PORT !== 0 && port !== config.BFF_PORT) throw new Error(`BFF_PORT ${config.BFF_PORT} is already in use on ${config.HOST}`);
  return port;
}
