import { z } from 'zod';

/**
 * The operators' reconciliation (infra/reconcile, run by the wallet for the console): one finding,
 * a finished run as the wallet keeps it, and what the dashboard reads.
 */
export const reconcileDiscrepancy = z.object({ rule: z.string(), detail: z.string(), userId: z.string().optional(), reference: z.string().optional() });
export type ReconcileDiscrepancyBody = z.infer<typeof reconcileDiscrepancy>;

/** A finished run: `total` counts every discrepancy, `discrepancies` lists the first 100. */
export const reconcileRun = z.object({
  startedAt: z.string(),
  finishedAt: z.string(),
  durationMs: z.number().int(),
  total: z.number().int(),
  byRule: z.record(z.string(), z.number().int()),
  discrepancies: z.array(reconcileDiscrepancy),
  counts: z.record(z.string(), z.number().int()),
  databases: z.record(z.string(), z.string()),
  /** The operator who asked for it. */
  ranBy: z.string().nullable(),
});
export type ReconcileRunBody = z.infer<typeof reconcileRun>;

/** `GET /api/admin/reconcile` (and the answer of `POST`): the latest finished run, and one underway. */
export const reconcileStatus = z.object({ latest: reconcileRun.nullable(), running: z.object({ startedAt: z.string() }).nullable() });
export type ReconcileStatusBody = z.infer<typeof reconcileStatus>;
