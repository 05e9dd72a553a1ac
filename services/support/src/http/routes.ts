import type { Express, Request, Response } from 'express';
import { z } from 'zod';
import { type EventOrigin, ticketCategories, ticketStatuses } from '@smm/contracts';
import { openTicketRequest, savedReplyRequest, ticketMessageRequest } from '@smm/contracts/http';
import { parseInput, roleGate, unauthorized } from '@smm/platform';
import { messages } from '../messages.ts';
import { createSavedReply, deleteSavedReply, listSavedReplies, updateSavedReply } from '../use-cases/saved-replies.ts';
import {
  type Caller,
  type SupportDeps,
  anyTicket,
  closeTicket,
  markRead,
  memberMessage,
  memberTickets,
  memberView,
  openTicket,
  operatorReply,
  operatorView,
  ownTicket,
  queue,
  reopenTicket,
  unreadCount,
} from '../use-cases/tickets.ts';

/** The member or operator the BFF's service credential names; a call without one is refused. */
function callerOf(req: Request): Caller {
  const { userId, role } = req.caller;
  if (userId === null) throw unauthorized(messages.userRequired, 'USER_REQUIRED');
  return { userId, role };
}

const originOf = (req: Request): EventOrigin => ({ correlationId: req.correlationId, causationId: req.id });

const idParam = z.object({ id: z.coerce.number({ error: messages.idInvalid }).int({ error: messages.idInvalid }).positive({ error: messages.idInvalid }).max(2 ** 31, { error: messages.idInvalid }) });
const number = (max: number) => z.coerce.number({ error: messages.queryInvalid }).int({ error: messages.queryInvalid }).min(1, { error: messages.queryInvalid }).max(max, { error: messages.queryInvalid });
const paging = { page: number(10_000).default(1), pageSize: number(100).default(20) };
const memberQuery = z.object(paging);
const queueQuery = z.object({
  ...paging,
  status: z.enum(ticketStatuses, { error: messages.queryInvalid }).optional(),
  category: z.enum(ticketCategories, { error: messages.queryInvalid }).optional(),
  userId: z.string().min(1).max(100).optional(),
  orderId: number(2 ** 31).optional(),
  ticketId: number(2 ** 31).optional(),
});

const operatorOnly = roleGate('operator', messages.operatorOnly);
/** Saved replies are the site's own words: staff use them, admins write them. */
const adminOnly = roleGate('admin', messages.adminOnly);

/** Members' routes: always the caller's own tickets. */
export function memberRoutes(app: Express, deps: SupportDeps): void {
  app.get('/tickets', async (req: Request, res: Response) => {
    res.json(await memberTickets(deps, callerOf(req).userId, parseInput(memberQuery, req.query)));
  });
  app.get('/tickets/unread', async (req: Request, res: Response) => {
    res.json({ count: await unreadCount(deps, callerOf(req).userId) });
  });
  app.post('/tickets', async (req: Request, res: Response) => {
    const body = openTicketRequest.parse(req.body ?? {});
    res.status(201).json(memberView(await openTicket(deps, callerOf(req), body)));
  });
  app.get('/tickets/:id', async (req: Request, res: Response) => {
    const { id } = parseInput(idParam, req.params);
    res.json(memberView(await ownTicket(deps, callerOf(req), id)));
  });
  app.post('/tickets/:id/messages', async (req: Request, res: Response) => {
    const { id } = parseInput(idParam, req.params);
    res.status(201).json(memberView(await memberMessage(deps, callerOf(req), id, ticketMessageRequest.parse(req.body ?? {}).body)));
  });
  app.post('/tickets/:id/read', async (req: Request, res: Response) => {
    const { id } = parseInput(idParam, req.params);
    await markRead(deps, callerOf(req), id);
    res.status(204).end();
  });
  app.post('/tickets/:id/close', async (req: Request, res: Response) => {
    const { id } = parseInput(idParam, req.params);
    res.json(memberView(await closeTicket(deps, callerOf(req), id, 'member', originOf(req))));
  });
}

/** Operators' routes (the BFF checks the role first; this is the second lock). */
export function operatorRoutes(app: Express, deps: SupportDeps): void {
  app.get('/admin/tickets', operatorOnly, async (req: Request, res: Response) => {
    const { page, pageSize, ...filter } = parseInput(queueQuery, req.query);
    res.json(await queue(deps, filter, { page, pageSize }));
  });
  app.get('/admin/tickets/:id', operatorOnly, async (req: Request, res: Response) => {
    const { id } = parseInput(idParam, req.params);
    res.json(operatorView(await anyTicket(deps, id)));
  });
  app.post('/admin/tickets/:id/replies', operatorOnly, async (req: Request, res: Response) => {
    const { id } = parseInput(idParam, req.params);
    res.status(201).json(operatorView(await operatorReply(deps, callerOf(req), id, ticketMessageRequest.parse(req.body ?? {}).body, originOf(req))));
  });
  app.post('/admin/tickets/:id/close', operatorOnly, async (req: Request, res: Response) => {
    const { id } = parseInput(idParam, req.params);
    res.json(operatorView(await closeTicket(deps, callerOf(req), id, 'operator', originOf(req))));
  });
  app.post('/admin/tickets/:id/reopen', operatorOnly, async (req: Request, res: Response) => {
    const { id } = parseInput(idParam, req.params);
    res.json(operatorView(await reopenTicket(deps, callerOf(req), id, originOf(req))));
  });

  app.get('/admin/saved-replies', operatorOnly, async (_req: Request, res: Response) => {
    res.json({ items: await listSavedReplies(deps) });
  });
  app.post('/admin/saved-replies', adminOnly, async (req: Request, res: Response) => {
    res.status(201).json(await createSavedReply(deps, callerOf(req), savedReplyRequest.parse(req.body ?? {}), originOf(req)));
  });
  app.patch('/admin/saved-replies/:id', adminOnly, async (req: Request, res: Response) => {
    const { id } = parseInput(idParam, req.params);
    res.json(await updateSavedReply(deps, callerOf(req), id, savedReplyRequest.parse(req.body ?? {}), originOf(req)));
  });
  app.delete('/admin/saved-replies/:id', adminOnly, async (req: Request, res: Response) => {
    const { id } = parseInput(idParam, req.params);
    await deleteSavedReply(deps, callerOf(req), id, originOf(req));
    res.status(204).end();
  });
}
