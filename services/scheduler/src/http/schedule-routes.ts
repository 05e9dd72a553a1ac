import type { Express } from 'express';
import { z } from 'zod';
import { parseInput, roleGate } from '@smm/platform';
import { messages } from '../messages.ts';
import type { AutoSchedules } from '../store/auto-schedule.model.ts';
import type { TopUpExpiries } from '../store/topup-expiry.model.ts';

const listQuery = z.object({
  kind: z.enum(['auto', 'topup'], { error: messages.kindInvalid }).optional(),
  limit: z.coerce.number({ error: messages.limitInvalid }).int({ error: messages.limitInvalid }).min(1, { error: messages.limitInvalid }).max(500, { error: messages.limitInvalid }).default(50),
});

type PendingItem =
  | { kind: 'auto'; autoOrderId: number; userId: string; run: number; runs: number; intervalMinutes: number; dueAt: string | null }
  | { kind: 'topup'; topUpId: number; userId: string; dueAt: string | null };

/** The BFF checks roles; this is the second lock, so an internal caller cannot read members' schedules by accident. */
const adminOnly = roleGate('admin', messages.adminOnly);

export function scheduleRoutes(stores: { schedules: AutoSchedules; expiries: TopUpExpiries }) {
  return (app: Express) => {
    /** What will fire next: auto orders with runs left (`run` = the next one) and open top-up requests, soonest first. */
    app.get('/schedules', adminOnly, async (req, res) => {
      const { kind, limit } = parseInput(listQuery, req.query);
      const items: PendingItem[] = [];
      if (kind !== 'topup') {
        for (const s of await stores.schedules.listPending(limit)) {
          items.push({ kind: 'auto', autoOrderId: s.autoOrderId, userId: s.userId, run: s.nextRun, runs: s.runs, intervalMinutes: s.intervalMinutes, dueAt: s.dueAt?.toISOString() ?? null });
        }
      }
      if (kind !== 'auto') {
        for (const e of await stores.expiries.listPending(limit)) {
          items.push({ kind: 'topup', topUpId: e.topUpId, userId: e.userId, dueAt: e.dueAt?.toISOString() ?? null });
        }
      }
      items.sort((a, b) => (a.dueAt ?? '').localeCompare(b.dueAt ?? ''));
      res.json({ items: items.slice(0, limit) });
    });
  };
}
