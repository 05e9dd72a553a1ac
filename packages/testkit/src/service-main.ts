import { fileURLToPath } from 'node:url';
import { type Infra, startInfra } from './index.ts';
import { testServiceSecret } from './service-credentials.ts';
import { type MainProcess, killMains, spawnMain } from './spawn-main.ts';

/** A main started and listening: its address, the process, and a stop by signal. */
export type ListeningMain = {
  base: string;
  process: MainProcess;
  /** Sends the signal and resolves with the exit code and the stdout lines that are not JSON (there should be none). */
  stop(signal?: NodeJS.Signals): Promise<{ code: number | null; nonJsonLines: string[] }>;
};

export type ServiceMain = {
  /** Starts the embedded servers: for beforeAll. */
  setup(): Promise<void>;
  /** Kills any main still running and stops the servers: for afterAll. */
  teardown(): Promise<void>;
  readonly infra: Infra;
  /** The devstack environment of this service: host, port 0, brokers, its database, secret, plus its own variables. */
  env(): Record<string, string>;
  /** Spawns `src/main.ts` with `env()` changed by `changes` (a value of undefined removes the variable); no waiting. */
  spawn(changes?: Record<string, string | undefined>): MainProcess;
  /** Spawns it and waits for its `listening` line. */
  start(changes?: Record<string, string | undefined>, timeoutMs?: number): Promise<ListeningMain>;
};

/**
 * The setup every service's `test/main.test.ts` shares: the embedded servers, the service's
 * devstack environment, and its `src/main.ts` run as the devstack runs it. `testFileUrl` is the
 * test's `import.meta.url` (the package is its parent folder); `ownEnv` adds the service's own
 * variables (its database: `infra.mongo.uri(...)`).
 */
export function serviceMain(testFileUrl: string, ownEnv: (infra: Infra) => Record<string, string>): ServiceMain {
  const packageDir = fileURLToPath(new URL('..', testFileUrl));
  let infra: Infra | undefined;
  const current = () => {
    if (!infra) throw new Error('serviceMain: call setup() first (in beforeAll)');
    return infra;
  };
  const env = () => ({
    HOST: '127.0.0.1',
    PORT: '0',
    KAFKA_BROKERS: current().kafka.brokers,
    LOG_LEVEL: 'info',
    SERVICE_AUTH_SECRET: testServiceSecret,
    ...ownEnv(current()),
  });
  const spawn = (changes: Record<string, string | undefined> = {}) => {
    const merged: Record<string, string> = {};
    for (const [key, value] of Object.entries({ ...env(), ...changes })) if (value !== undefined) merged[key] = value;
    return spawnMain(packageDir, merged);
  };
  return {
    async setup() {
      infra = await startInfra();
    },
    async teardown() {
      killMains();
      await infra?.stop();
      infra = undefined;
    },
    get infra() {
      return current();
    },
    env,
    spawn,
    async start(changes, timeoutMs) {
      const process = spawn(changes);
      const listening = await process.waitFor('listening', timeoutMs);
      return {
        base: `http://127.0.0.1:${String(listening.port)}`,
        process,
        async stop(signal = 'SIGTERM') {
          process.child.kill(signal);
          const code = await process.exited;
          const nonJsonLines = process
            .stdout()
            .trim()
            .split('\n')
            .filter((line) => {
              try {
                JSON.parse(line);
                return false;
              } catch {
                return true;
              }
            });
          return { code, nonJsonLines };
        },
      };
    },
  };
}
