import type { Express } from 'express';
import type { Redis } from 'ioredis';
import type { Logger } from 'pino';
import { type ReadinessCheck, createHttpApp } from '@smm/platform';
import { accountRoutes } from './http/account-routes.ts';
import { authRoutes } from './http/auth-routes.ts';
import { devRoutes } from './http/dev-routes.ts';
import { errorExtras } from './http/error-extras.ts';
import type { AuthServices } from './use-cases/context.ts';

export type AppDeps = {
  logger: Logger;
  services: AuthServices;
  redis: Redis;
  /** Mounts `GET /dev/sms-outbox`; off in production (the route then answers 404 like any unknown path). */
  devSmsOutbox: boolean;
  readiness?: Record<string, ReadinessCheck>;
};

/** The auth service's HTTP app, without listening (main and the tests listen). */
export function createApp({ logger, services, redis, devSmsOutbox, readiness }: AppDeps): Express {
  return createHttpApp({
    logger,
    readiness: readiness ?? {},
    routes: (app) => {
      authRoutes(app, services);
      accountRoutes(app, services);
      if (devSmsOutbox) devRoutes(app, redis);
      app.use(errorExtras);
    },
  });
}
