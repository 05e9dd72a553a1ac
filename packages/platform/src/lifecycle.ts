import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Express } from 'express';
import type { Logger } from 'pino';

export type RunningServer = { server: Server; port: number; close(): Promise<void> };

/** Listens on host:port (0 = any free port) and resolves once connections are accepted. */
export function listen(app: Express, port: number, host = '127.0.0.1'): Promise<RunningServer> {
  return new Promise((resolve, reject) => {
    const server = app.listen(port, host);
    server.once('error', reject);
    server.once('listening', () => {
      server.off('error', reject);
      const actual = (server.address() as AddressInfo).port;
      resolve({
        server,
        port: actual,
        close: () =>
          new Promise<void>((done, fail) => {
            server.close((err) => (err ? fail(err) : done()));
            server.closeIdleConnections();
          }),
      });
    });
  });
}

/**
 * The `listening` record with the port actually bound, written at any LOG_LEVEL but `silent`: a
 * supervisor (the devstack) takes the process's readiness and address from this record of its own
 * child, never from whoever answers on a port.
 */
export function announceListening(logger: Logger, host: string, port: number): void {
  if (logger.level === 'silent') return;
  logger.child({}, { level: 'info' }).info({ host, port }, 'listening');
}

export type ShutdownStep = { name: string; run: () => Promise<unknown> };

/**
 * Runs the steps in order on SIGINT or SIGTERM, then exits 0. A step that fails is logged and the
 * rest still run; a second signal while stopping exits at once with 1.
 */
export function onShutdown(logger: Logger, steps: ShutdownStep[], graceMs = 10_000): void {
  let stopping = false;
  const stop = async (signal: NodeJS.Signals) => {
    if (stopping) {
      logger.warn({ signal }, 'second signal while stopping; exiting now');
      process.exit(1);
    }
    stopping = true;
    logger.info({ signal }, 'stopping');
    const deadline = setTimeout(() => {
      logger.error({ graceMs }, 'shutdown took too long; exiting');
      process.exit(1);
    }, graceMs);
    deadline.unref();
    for (const step of steps) {
      try {
        await step.run();
      } catch (error) {
        logger.error({ err: error, step: step.name }, 'shutdown step failed');
      }
    }
    logger.info('stopped');
    process.exit(0);
  };
  process.once('SIGINT', stop);
  process.once('SIGTERM', stop);
}
