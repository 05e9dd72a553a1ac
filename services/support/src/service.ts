import { Topics } from '@smm/contracts';
import { type Logger, type RunningService, startService, type KafkaSasl } from '@smm/platform';
import { memberRoutes, operatorRoutes } from './http/routes.ts';
import { Store } from './store/store.ts';
import type { Limits, SupportDeps } from './use-cases/tickets.ts';

export type SupportSettings = {
  mongoUrl: string;
  kafkaBrokers: readonly string[];
  /** Kafka credentials (null: none); left out, KAFKA_SASL_* of the process's environment. */
  kafkaSasl?: KafkaSasl | null;
  logger: Logger;
  /** SERVICE_AUTH_SECRET: every route but the probes needs a service credential signed with it. */
  serviceAuthSecret: string;
  limits: Limits;
  /** The clock; tests move it instead of sleeping through the per-minute limit. */
  now?: () => Date;
  relayIntervalMs?: number;
  /** main listens on PORT/HOST; tests run `app` themselves. */
  listen?: { port: number; host?: string };
};

export type SupportService = RunningService<SupportDeps> & { store: Store };

/**
 * Support tickets (issue 40): its own database, HTTP for the BFF, and through its outbox the
 * `support` topic (answers and closes, for the members' live channel) and operators' actions on
 * the audit topic. It consumes nothing.
 */
export async function startSupportService(settings: SupportSettings): Promise<SupportService> {
  const service = await startService<SupportDeps>({
    name: 'support',
    logger: settings.logger,
    mongoUrl: settings.mongoUrl,
    kafkaBrokers: settings.kafkaBrokers,
    ...(settings.kafkaSasl !== undefined && { kafkaSasl: settings.kafkaSasl }),
    serviceAuthSecret: settings.serviceAuthSecret,
    topics: [Topics.support, Topics.audit],
    relay: { intervalMs: settings.relayIntervalMs ?? 1000 },
    ...(settings.listen ? { listen: settings.listen } : {}),
    async build({ connection }) {
      const store = new Store(connection);
      await store.init();
      return { store, limits: settings.limits, now: settings.now ?? (() => new Date()) };
    },
    routes: (app, deps) => {
      memberRoutes(app, deps);
      operatorRoutes(app, deps);
    },
  });
  settings.logger.info({ limits: settings.limits }, 'support started');
  return { ...service, store: service.deps.store };
}
