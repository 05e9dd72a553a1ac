import { createLogger, loadConfig, runService } from '@smm/platform';
import { configShape } from './config.ts';
import { startAuthService } from './service.ts';

// Composition root: configuration, then the service started (and stopped on signals) by the platform.
const config = loadConfig(configShape);
const logger = createLogger({ service: config.SERVICE_NAME, level: config.LOG_LEVEL });

await runService(logger, () => startAuthService(config, logger, { listen: { port: config.PORT, host: config.HOST } }));
