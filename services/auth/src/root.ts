import { type AppRoot, kafkaSaslFromEnv, parseConfig } from '@smm/platform';
import { configShape } from './config.ts';
import { startAuthService } from './service.ts';

/**
 * The auth service's composition root: its configuration from `env` (process.env in its own
 * process, the record the devstack gives it in the shared one), then the service started.
 */
export const startAuthApp: AppRoot = (env, logger) => {
  const config = parseConfig(configShape, env);
  return startAuthService(config, logger, { listen: { port: config.PORT, host: config.HOST }, kafkaSasl: kafkaSaslFromEnv(env) ?? null });
};
