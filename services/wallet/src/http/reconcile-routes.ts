import type { Express } from 'express';
import { MongoClient } from 'mongodb';
import type { ReconcileRunBody, ReconcileStatusBody } from '@smm/contracts/http';
import { HttpError } from '@smm/platform';
import { type Databases, databasesFrom, reconcile } from '@smm/reconcile';
import type { WalletDeps } from '../use-cases/context.ts';
import { operatorOnly } from './actor.ts';

/**
 * The operators' reconciliation (infra/reconcile) for the console's dashboard:
 * `POST /admin/reconcile` runs it (joining a run already underway) and answers once it is done, or
 * after `answerWithinMs` with the run still underway; `GET /admin/reconcile/latest` answers the last
 * finished run, kept in the wallet's database (`reconcile_runs`), and the one underway.
 *
 * The one operator tool that reads other services' databases (docs/ARCHITECTURE.md "Reconcile,
 * don't assume"): only finds, through RECONCILE_MONGO_URL — in production a user allowed to read
 * and nothing else — or, when unset, the wallet's own connection to the cluster (the devstack's
 * databases are named after their services; RECONCILE_DATABASES names others). Read here rather
 * than in config.ts so this one tool's settings stay beside it.
 */
export type ReconcileSettings = { mongoUrl?: string | undefined; databases?: Partial<Databases>; answerWithinMs?: number; recheckAfterMs?: number };

/** Korean answers of this route (the wallet's other messages are in domain/messages.ts). */
const text = { failed: '정합성 점검을 실행하지 못했습니다. 잠시 후 다시 시도해 주세요.' };

/** What the console lists of a run: the first 100 discrepancies (all are counted). */
const listed = 100;

type StoredRun = ReconcileRunBody & { _id: string };

export function reconcileSettingsFromEnv(env: NodeJS.ProcessEnv = process.env): ReconcileSettings {
  return { mongoUrl: env.RECONCILE_MONGO_URL?.trim() || undefined, databases: databasesFrom(env.RECONCILE_DATABASES) };
}

export function reconcileRoutes(deps: WalletDeps, settings: ReconcileSettings = reconcileSettingsFromEnv()) {
  const connection = deps.store.connection;
  const runs = () => connection.db!.collection<StoredRun>('reconcile_runs');
  let running: { startedAt: string; done: Promise<void> } | null = null;

  const runOnce = async (ranBy: string | null): Promise<void> => {
    const own = settings.mongoUrl === undefined ? null : await MongoClient.connect(settings.mongoUrl, { serverSelectionTimeoutMS: 10_000 });
    try {
      const report = await reconcile({
        client: own ?? connection.getClient(),
        databases: { wallet: connection.name, ...settings.databases },
        limit: listed,
        ...(settings.recheckAfterMs === undefined ? {} : { recheckAfterMs: settings.recheckAfterMs }),
      });
      const run: ReconcileRunBody = {
        startedAt: report.startedAt,
        finishedAt: new Date().toISOString(),
        durationMs: report.durationMs,
        total: report.total,
        byRule: report.byRule as Record<string, number>,
        discrepancies: report.discrepancies,
        counts: report.counts,
        databases: report.databases,
        ranBy,
      };
      // The wallet's own database: the latest run replaces the one before.
      await runs().replaceOne({ _id: 'latest' }, run, { upsert: true });
      deps.logger.info({ total: run.total, byRule: run.byRule, durationMs: run.durationMs, ranBy }, 'reconciliation finished');
    } finally {
      await own?.close();
    }
  };

  const status = async (): Promise<ReconcileStatusBody> => {
    const doc = await runs().findOne({ _id: 'latest' });
    const latest = doc === null ? null : (({ _id, ...run }) => run)(doc);
    return { latest, running: running === null ? null : { startedAt: running.startedAt } };
  };

  return (app: Express) => {
    app.post('/admin/reconcile', operatorOnly, async (req, res) => {
      if (running === null) {
        const startedAt = new Date().toISOString();
        const done = (async () => {
          try {
            await runOnce(req.caller.userId);
          } finally {
            running = null;
          }
        })();
        // Handled here too: a run that fails after its request was answered must not go unhandled.
        done.catch((error: unknown) => deps.logger.error({ err: (error as Error).message }, 'reconciliation could not run'));
        running = { startedAt, done };
      }
      const current = running;
      try {
        await Promise.race([current.done, new Promise((resolve) => setTimeout(resolve, settings.answerWithinMs ?? 5000).unref())]);
      } catch {
        throw new HttpError(503, 'RECONCILE_FAILED', text.failed);
      }
      res.json((await status()) satisfies ReconcileStatusBody);
    });

    app.get('/admin/reconcile/latest', operatorOnly, async (_req, res) => {
      res.json((await status()) satisfies ReconcileStatusBody);
    });
  };
}
