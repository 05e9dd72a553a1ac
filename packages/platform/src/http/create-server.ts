import { createHash, timingSafeEqual } from 'node:crypto';
import express from 'express';
import type { Express, Request, Response } from 'express';
import type { Logger } from 'pino';
import { httpMetrics, metricsHandler } from '../observability/metrics.ts';
import { traceRequests } from '../observability/tracing.ts';
import { errorMapper } from './error-mapper.ts';
import { rejectDeepJson } from './json-depth.ts';
import { genericMessages, notFound } from './errors.ts';
import { requestContext } from './request-context.ts';
import { type ServiceAuthOptions, requireServiceCredential } from './service-auth.ts';

declare module 'express-serve-static-core' {
  interface Request {
    /** The JSON body as received (set when express.json parsed one). */
    rawBody?: Buffer;
  }
}

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
  /**
   * Who may call: every route but /healthz and /readyz needs a service credential for `audience`
   * signed with `secret`, and `req.caller` is set from it. `null` only for the public edge (the BFF),
   * which authenticates members and API keys itself.
   */
  serviceAuth: ServiceAuthOptions | null;
  /**
   * On the public edge (`serviceAuth: null`): the bearer token that opens `/metrics` and the
   * readiness details. Without it `/metrics` answers 404 there and `/readyz` only its status, so
   * the public port lists neither the internal services nor their figures. Internal services
   * (which listen on a private address) serve both as before.
   */
  opsToken?: string;
  /** Registers the app's routes; runs after the common middleware, before the 404 and error mapper. */
  routes: (app: Express) => void;
};

/** `Authorization: Bearer <token>` compared in constant time. */
function bearerMatches(header: string | undefined, token: string): boolean {
  const given = /^Bearer (.+)$/.exec(header ?? '')?.[1];
  if (given === undefined) return false;
  const a = createHash('sha256').update(given).digest();
  const b = createHash('sha256').update(token).digest();
  return timingSafeEqual(a, b);
}

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
export function createHttpApp({ logger, readiness = {}, bodyLimit = '100kb', readinessTimeoutMs = 2000, serviceAuth, opsToken, routes }: HttpAppOptions): Express {
  const app = express();
  const serveMetrics = metricsHandler();
  app.disable('x-powered-by');
  app.set('etag', false);
  app.use(requestContext(logger, new Set(['/healthz', '/readyz', '/metrics'])));
  app.use(httpMetrics());
  app.use(traceRequests());
  app.get('/healthz', (_req: Request, res: Response) => {
    res.json({ status: 'ok' });
  });
  // Internal services always show operations data; the public edge only to the ops token's holder.
  const opsAllowed = serviceAuth !== null ? () => true : (req: Request) => opsToken !== undefined && bearerMatches(req.headers.authorization, opsToken);
  app.get('/metrics', async (req: Request, res: Response) => {
    if (!opsAllowed(req)) throw notFound(genericMessages.routeNotFound, 'ROUTE_NOT_FOUND');
    await serveMetrics(req, res);
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
    res.status(ready ? 200 : 503).json({ status: ready ? 'ready' : 'not_ready', ...(opsAllowed(req) && { checks }) });
  });

  // Checked before the body is parsed: an unauthenticated caller costs no JSON parsing.
  if (serviceAuth !== null) app.use(requireServiceCredential(serviceAuth));
  // The raw bytes stay beside the parsed body: a signed webhook is verified over exactly what was sent.
  app.use(
    express.json({
      limit: bodyLimit,
      verify: (req, _res, buf) => {
        (req as Request).rawBody = buf;
      },
    }),
  );
  app.use(rejectDeepJson());
  routes(app);

  app.use((_req: Request, _res: Response) => {
    throw notFound(genericMessages.routeNotFound, 'ROUTE_NOT_FOUND');
  });
  app.use(errorMapper(logger));
  return app;
}
