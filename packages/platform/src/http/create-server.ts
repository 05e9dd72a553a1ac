import express from 'express';
import type { Express, Request, Response } from 'express';
import type { Logger } from 'pino';
import { errorMapper } from './error-mapper.ts';
import { genericMessages, notFound } from './errors.ts';
import { requestContext } from './request-context.ts';

/** Resolves when the dependency answers; rejects (or times out) when it does not. */
export type ReadinessCheck = () => Promise<unknown>;

export type HttpAppOptions = {
  logger: Logger;
  /** Dependencies `/readyz` checks, by name (e.g. mongo, kafka, redis). */
  readiness?: Record<string, ReadinessCheck>;
  /** Largest JSON body accepted; bigger ones get 413. */
  bodyLimit?: string;
  /** How long one readiness check may take before it counts as failed. */
  readinessTimeoutMs?: number;
  /** Registers the app's routes; runs after the common middleware, before the 404 and error mapper. */
  routes: (app: Express) => void;
};

function withTimeout(check: ReadinessCheck, ms: number): Promise<unknown> {
  let timer: NodeJS.Timeout | undefined;
  return Promise.race([
    Promise.resolve().then(check),
    new Promise((_, reject) => {
      timer = setTimeout(() => reject(new Error(`no answer within ${ms} ms`)), ms);
    }),
  ]).finally(() => clearTimeout(timer));
}

/**
 * Builds an express app with what every service needs. It does not listen: `main.ts` does, and
 * tests run the app on port 0.
 */
export function createHttpApp({ logger, readiness = {}, bodyLimit = '100kb', readinessTimeoutMs = 2000, routes }: HttpAppOptions): Express {
  const app = express();
  app.disable('x-powered-by');
  app.set('etag', false);
  app.use(requestContext(logger, new Set(['/healthz', '/readyz'])));
  app.use(express.json({ limit: bodyLimit }));

  app.get('/healthz', (_req: Request, res: Response) => {
    res.json({ status: 'ok' });
  });
  app.get('/readyz', async (req: Request, res: Response) => {
    const names = Object.keys(readiness);
    const results = await Promise.allSettled(names.map((name) => withTimeout(readiness[name]!, readinessTimeoutMs)));
    const checks: Record<string, string> = {};
    let ready = true;
    results.forEach((result, i) => {
      const name = names[i]!;
      if (result.status === 'fulfilled') checks[name] = 'ok';
      else {
        ready = false;
        checks[name] = 'unavailable';
        req.log.warn({ check: name, reason: String(result.reason) }, 'readiness check failed');
      }
    });
    res.status(ready ? 200 : 503).json({ status: ready ? 'ready' : 'not_ready', checks });
  });

  routes(app);

  app.use((_req: Request, _res: Response) => {
    throw notFound(genericMessages.routeNotFound, 'ROUTE_NOT_FOUND');
  });
  app.use(errorMapper(logger));
  return app;
}
