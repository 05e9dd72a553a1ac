import { createLogger, listen, loadConfig, onShutdown } from '@smm/platform';
import { configShape } from './config.ts';
import { startRuntime } from './runtime.ts';

// Composition root: configuration, the runtime, the listener, the shutdown order.
const config = loadConfig(configShape);
const logger = createLogger({ service: config.SERVICE_NAME, level: config.LOG_LEVEL });

try {
  const runtime = await startRuntime(config, logger);
  const server = await listen(runtime.app, config.PORT, config.HOST);
  logger.info({ host: config.HOST, port: server.port }, 'listening');
  onShutdown(logger, [
    { name: 'http', run: () => server.close() },
    { name: 'runtime', run: () => runtime.stop() },
  ]);
} catch (error) {
  logger.fatal({ err: error }, 'start-up failed');
  process.exit(1);
}
