import type { Logger } from 'pino';
import { Topics } from '@smm/contracts';
import { type RunningService, startService, type KafkaSasl } from '@smm/platform';
import { startAuditConsumer } from './audit/audit-consumer.ts';
import { auditRoutes } from './audit/audit-routes.ts';
import type { AuthConfig } from './config.ts';
import { startAuthConsumer } from './events/consumer.ts';
import { accountRoutes } from './http/account-routes.ts';
import { adminRoutes } from './http/admin-routes.ts';
import { authRoutes } from './http/auth-routes.ts';
import { devRoutes } from './http/dev-routes.ts';
import { exportRoutes } from './http/export-routes.ts';
import { errorExtras } from './http/error-extras.ts';
import { operatorRoutes } from './http/operator-routes.ts';
import { buildServices } from './services.ts';
import { bootstrapAdmin } from './use-cases/bootstrap-admin.ts';
import type { AuthServices } from './use-cases/context.ts';

export type AuthService = RunningService<AuthServices> & { services: AuthServices };

/**
 * The auth service's wiring, started by the platform's startService: indexes built, the admin
 * account present, the settings consumer running, the routes (`GET /dev/sms-outbox` only with
 * SMS_DEV_OUTBOX; it otherwise answers 404 like any unknown path). main.ts and the integration
 * tests both start the service through this.
 */
export async function startAuthService(
  config: AuthConfig,
  logger: Logger,
  options: { consumerGroup?: string | undefined; listen?: { port: number; host?: string }; kafkaSasl?: KafkaSasl | null } = {},
): Promise<AuthService> {
  const service = await startService<AuthServices>({
    name: config.SERVICE_NAME,
    logger,
    mongoUrl: config.MONGO_URL,
    kafkaBrokers: config.KAFKA_BROKERS,
    ...(options.kafkaSasl !== undefined && { kafkaSasl: options.kafkaSasl }),
    redisUrl: config.REDIS_URL,
    serviceAuthSecret: config.SERVICE_AUTH_SECRET,
    topics: [Topics.auth, Topics.catalog, Topics.audit],
    relay: { intervalMs: 500 },
    ...(options.listen ? { listen: options.listen } : {}),
    async build({ connection, redis, relay }) {
      const services = buildServices({ config, logger, connection, redis: redis!, kickOutbox: () => relay.kick() });
      await services.members.ensureIndexes();
      await services.passwords.warmUp();
      if (config.ADMIN_ID !== undefined && config.ADMIN_PASSWORD !== undefined) {
        await bootstrapAdmin(services, config.ADMIN_ID, config.ADMIN_PASSWORD);
      }
      return services;
    },
    consumers: async (services, { kafka, producer, connection }) => [
      await startAuthConsumer({ kafka, producer, connection, settings: services.settings, logger, groupId: options.consumerGroup }),
      // The operator audit log (every service's OperatorActed events), in a group of its own.
      await startAuditConsumer({ kafka, producer, connection, logger, groupId: options.consumerGroup && `${options.consumerGroup}-audit` }),
    ],
    routes(app, services, { redis }) {
      authRoutes(app, services);
      accountRoutes(app, services);
      adminRoutes(app, services);
      auditRoutes(app, services);
      exportRoutes(app, services);
      operatorRoutes(app, services);
      if (config.SMS_DEV_OUTBOX) devRoutes(app, redis!);
      app.use(errorExtras);
    },
  });
  return { ...service, services: service.deps };
}
