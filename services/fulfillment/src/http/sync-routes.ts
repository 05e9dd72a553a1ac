import type { Express, Request, Response } from 'express';
import { notFound } from '@smm/platform';

/** Operators can run a periodic task now ("sync now" buttons); answers what it did. Behind adminOnly. */
export function syncRoutes(app: Express, tasks: Record<'statuses' | 'balances' | 'prices', () => Promise<unknown>>): void {
  app.post('/admin/sync/:task', async (req: Request, res: Response) => {
    const name = req.params.task as string;
    if (!(name in tasks)) throw notFound();
    const result = await tasks[name as keyof typeof tasks]();
    res.json(result ?? { done: true });
  });
}
