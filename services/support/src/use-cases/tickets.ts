import type { ClientSession } from 'mongoose';
import { type AuditAction, type EventEnvelope, type EventOrigin, type TicketStatus, TicketAnswered, TicketClosed, Topics, ticketLimits } from '@smm/contracts';
import type { TicketDetailBody, TicketSummaryBody } from '@smm/contracts/http';
import { type AuditFields, appendToOutbox, badRequest, conflict, forbidden, inTransaction, notFound, recordOperatorAction, tooManyRequests } from '@smm/platform';
import { type Problem, activeStatuses, afterMessage, checkCategory, checkOrderIds, checkText, isProblem, messageWindow } from '../domain/ticket-rules.ts';
import { messages } from '../messages.ts';
import type { MessageDoc, Store, TicketDoc } from '../store/store.ts';

export type Limits = { openPerMember: number; messagesPerMinute: number };

/** What every use case needs; `now` is injected so tests move the clock instead of sleeping. */
export type SupportDeps = { store: Store; limits: Limits; now: () => Date };

/** Who asked: the member or operator the BFF's service credential names. */
export type Caller = { userId: string; role: string | null };

const invalid = (p: Problem) => badRequest(p.message, [{ field: p.code, message: p.message }], p.code);
const ticketNotFound = () => notFound(messages.ticketNotFound, 'TICKET_NOT_FOUND');

function text(value: string | undefined, kind: 'title' | 'body'): string {
  const checked = checkText(value, kind);
  if (!checked.ok) throw invalid(checked.problem);
  return checked.text;
}

/** A ticket as its member sees it: operators' messages without the operator's id. */
export function memberView(doc: TicketDoc): TicketDetailBody {
  return {
    ...summaryView(doc),
    messages: doc.messages.map((m) => ({ id: m.id, author: m.author, body: m.body, createdAt: m.createdAt.toISOString() })),
  };
}

/** A ticket as operators see it: every message with its author's id. */
export function operatorView(doc: TicketDoc): TicketDetailBody {
  return {
    ...summaryView(doc),
    messages: doc.messages.map((m) => ({ id: m.id, author: m.author, authorId: m.authorId, body: m.body, createdAt: m.createdAt.toISOString() })),
  };
}

export function summaryView(doc: Omit<TicketDoc, 'messages'>): TicketSummaryBody {
  return {
    id: doc._id,
    userId: doc.userId,
    category: doc.category,
    title: doc.title,
    status: doc.status,
    orderIds: doc.orderIds,
    unread: doc.memberUnread,
    messageCount: doc.messageCount,
    createdAt: doc.createdAt.toISOString(),
    lastMessageAt: doc.lastMessageAt.toISOString(),
  };
}

/**
 * Spends one of the member's messages of the sliding minute, or refuses (429). Every member write
 * goes through here first, so two writes of one member in parallel conflict on this document and
 * one is retried after the other: the open-ticket count cannot be raced past its limit either.
 */
async function spendMessage(deps: SupportDeps, userId: string, session: ClientSession): Promise<void> {
  const now = deps.now();
  const doc = await deps.store.activity.findById(userId).session(session).lean();
  const window = messageWindow(doc?.recent ?? [], now, deps.limits.messagesPerMinute);
  if (!window.allowed) throw tooManyRequests(messages.tooManyMessages(deps.limits.messagesPerMinute), 'TOO_MANY_MESSAGES');
  await deps.store.activity.updateOne({ _id: userId }, { $set: { recent: [...window.kept, now] } }, { upsert: true, session });
}

async function transaction<T>(deps: SupportDeps, work: (session: ClientSession, emit: (event: EventEnvelope) => void, audit: (action: AuditAction, caller: Caller, id: number, before: AuditFields, after: AuditFields, origin: EventOrigin) => Promise<void>) => Promise<T>): Promise<T> {
  return inTransaction(deps.store.connection, async (session) => {
    const events: EventEnvelope[] = [];
    const audit = async (action: AuditAction, caller: Caller, id: number, before: AuditFields, after: AuditFields, origin: EventOrigin) => {
      await recordOperatorAction(deps.store.connection, session, { caller: { userId: caller.userId, role: caller.role as never }, action, target: { type: 'ticket', id: String(id) }, before, after }, origin);
    };
    const result = await work(session, (event) => events.push(event), audit);
    if (events.length > 0) await appendToOutbox(deps.store.connection, session, Topics.support, events);
    return result;
  });
}

export type OpenTicketInput = { category?: string | undefined; title?: string | undefined; body?: string | undefined; orderIds?: readonly number[] | undefined };

/** A member opens a ticket with its first message. */
export async function openTicket(deps: SupportDeps, caller: Caller, input: OpenTicketInput): Promise<TicketDoc> {
  const category = checkCategory(input.category);
  if (isProblem(category)) throw invalid(category);
  const title = text(input.title, 'title');
  const body = text(input.body, 'body');
  const orderIds = checkOrderIds(input.orderIds);
  if (isProblem(orderIds)) throw invalid(orderIds);
  return transaction(deps, async (session) => {
    await spendMessage(deps, caller.userId, session);
    const active = await deps.store.tickets.countDocuments({ userId: caller.userId, status: { $in: activeStatuses } }).session(session);
    if (active >= deps.limits.openPerMember) throw conflict(messages.tooManyOpen(deps.limits.openPerMember), 'TOO_MANY_OPEN_TICKETS');
    const id = await deps.store.nextId('ticket', session);
    const now = deps.now();
    const doc: TicketDoc = {
      _id: id,
      userId: caller.userId,
      category,
      title,
      status: 'open',
      orderIds,
      messages: [{ id: 1, author: 'member', authorId: caller.userId, body, createdAt: now }],
      messageCount: 1,
      memberUnread: false,
      createdAt: now,
      lastMessageAt: now,
      closedAt: null,
    };
    await deps.store.tickets.create([doc], { session });
    return doc;
  });
}

async function load(deps: SupportDeps, id: number, session?: ClientSession): Promise<TicketDoc> {
  const query = deps.store.tickets.findById(id);
  const doc = await (session ? query.session(session) : query).lean<TicketDoc>();
  if (!doc) throw ticketNotFound();
  return doc;
}

/** The member's own ticket; someone else's answers exactly like a missing one. */
export async function ownTicket(deps: SupportDeps, caller: Caller, id: number, session?: ClientSession): Promise<TicketDoc> {
  const doc = await load(deps, id, session);
  if (doc.userId !== caller.userId) throw ticketNotFound();
  return doc;
}

export async function anyTicket(deps: SupportDeps, id: number): Promise<TicketDoc> {
  return load(deps, id);
}

function addMessage(doc: TicketDoc, message: MessageDoc, status: TicketStatus, memberUnread: boolean) {
  return {
    $push: { messages: message },
    $set: { status, lastMessageAt: message.createdAt, memberUnread, messageCount: doc.messageCount + 1 },
  };
}

function nextStatus(doc: TicketDoc, author: 'member' | 'operator'): TicketStatus {
  const status = afterMessage(doc.status, author);
  if (isProblem(status)) throw conflict(status.message, status.code);
  if (doc.messageCount >= ticketLimits.messagesMax) throw conflict(messages.threadFull, 'THREAD_FULL');
  return status;
}

/** The member writes into their own ticket: it waits for an operator again. */
export async function memberMessage(deps: SupportDeps, caller: Caller, id: number, bodyText: string | undefined): Promise<TicketDoc> {
  const body = text(bodyText, 'body');
  return transaction(deps, async (session) => {
    await spendMessage(deps, caller.userId, session);
    const doc = await ownTicket(deps, caller, id, session);
    const status = nextStatus(doc, 'member');
    const message: MessageDoc = { id: doc.messageCount + 1, author: 'member', authorId: caller.userId, body, createdAt: deps.now() };
    // The member reading their thread has read everything in it.
    await deps.store.tickets.updateOne({ _id: id }, addMessage(doc, message, status, false), { session });
    return load(deps, id, session);
  });
}

/** An operator may not act on their own ticket (SELF_ACTION), whatever their role. */
function notOwn(doc: TicketDoc, caller: Caller): void {
  if (doc.userId === caller.userId) throw forbidden(messages.selfAction, 'SELF_ACTION');
}

/** An operator answers: the ticket is answered, the member sees it live (TicketAnswered) and unread. */
export async function operatorReply(deps: SupportDeps, caller: Caller, id: number, bodyText: string | undefined, origin: EventOrigin): Promise<TicketDoc> {
  const body = text(bodyText, 'body');
  return transaction(deps, async (session, emit, audit) => {
    const doc = await load(deps, id, session);
    notOwn(doc, caller);
    const status = nextStatus(doc, 'operator');
    const message: MessageDoc = { id: doc.messageCount + 1, author: 'operator', authorId: caller.userId, body, createdAt: deps.now() };
    await deps.store.tickets.updateOne({ _id: id }, addMessage(doc, message, status, true), { session });
    emit(TicketAnswered.create(`ticket-${id}`, { ticketId: id, userId: doc.userId, messageId: message.id }, origin));
    await audit('support.ticket.reply', caller, id, { status: doc.status }, { status, message: body }, origin);
    return load(deps, id, session);
  });
}

/** Closes a ticket: its member, or an operator (audited). */
export async function closeTicket(deps: SupportDeps, caller: Caller, id: number, by: 'member' | 'operator', origin: EventOrigin): Promise<TicketDoc> {
  return transaction(deps, async (session, emit, audit) => {
    const doc = by === 'member' ? await ownTicket(deps, caller, id, session) : await load(deps, id, session);
    if (by === 'operator') notOwn(doc, caller);
    if (doc.status === 'closed') throw conflict(messages.alreadyClosed, 'TICKET_ALREADY_CLOSED');
    const now = deps.now();
    await deps.store.tickets.updateOne({ _id: id, status: doc.status }, { $set: { status: 'closed', closedAt: now } }, { session });
    emit(TicketClosed.create(`ticket-${id}`, { ticketId: id, userId: doc.userId, by }, origin));
    if (by === 'operator') await audit('support.ticket.close', caller, id, { status: doc.status }, { status: 'closed' }, origin);
    return load(deps, id, session);
  });
}

/** An operator reopens a closed ticket: it waits for an operator again. */
export async function reopenTicket(deps: SupportDeps, caller: Caller, id: number, origin: EventOrigin): Promise<TicketDoc> {
  return transaction(deps, async (session, _emit, audit) => {
    const doc = await load(deps, id, session);
    notOwn(doc, caller);
    if (doc.status !== 'closed') throw conflict(messages.notClosed, 'TICKET_NOT_CLOSED');
    await deps.store.tickets.updateOne({ _id: id, status: 'closed' }, { $set: { status: 'open', closedAt: null } }, { session });
    await audit('support.ticket.reopen', caller, id, { status: 'closed' }, { status: 'open' }, origin);
    return load(deps, id, session);
  });
}

/** The member opened the thread: the operator's answer is no longer unread. */
export async function markRead(deps: SupportDeps, caller: Caller, id: number): Promise<void> {
  const result = await deps.store.tickets.updateOne({ _id: id, userId: caller.userId }, { $set: { memberUnread: false } });
  if (result.matchedCount === 0) throw ticketNotFound();
}

export async function unreadCount(deps: SupportDeps, userId: string): Promise<number> {
  return deps.store.tickets.countDocuments({ userId, memberUnread: true });
}

export type Paging = { page: number; pageSize: number };

async function pageOf(deps: SupportDeps, filter: Record<string, unknown>, sort: Record<string, 1 | -1>, paging: Paging) {
  const rows = await deps.store.tickets
    .find(filter, { messages: 0 })
    .sort(sort)
    .skip((paging.page - 1) * paging.pageSize)
    .limit(paging.pageSize + 1)
    .lean<Array<Omit<TicketDoc, 'messages'>>>();
  return { items: rows.slice(0, paging.pageSize).map(summaryView), page: paging.page, pageSize: paging.pageSize, hasNext: rows.length > paging.pageSize };
}

export function memberTickets(deps: SupportDeps, userId: string, paging: Paging) {
  return pageOf(deps, { userId }, { _id: -1 }, paging);
}

export type QueueFilter = { status?: TicketStatus | undefined; category?: string | undefined; userId?: string | undefined; orderId?: number | undefined; ticketId?: number | undefined };

/** The operators' queue: waiting tickets longest-waiting first, the others latest first. */
export function queue(deps: SupportDeps, filter: QueueFilter, paging: Paging) {
  const query: Record<string, unknown> = {};
  if (filter.status) query.status = filter.status;
  if (filter.category) query.category = filter.category;
  if (filter.userId) query.userId = filter.userId;
  if (filter.orderId !== undefined) query.orderIds = filter.orderId;
  if (filter.ticketId !== undefined) query._id = filter.ticketId;
  const sort: Record<string, 1 | -1> = filter.status === 'open' ? { lastMessageAt: 1, _id: 1 } : { lastMessageAt: -1, _id: -1 };
  return pageOf(deps, query, sort, paging);
}
