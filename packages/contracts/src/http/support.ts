import { z } from 'zod';
import { isoDateText, page, requestBody, requestText } from './common.ts';

/*
 * The support service's answers (issue 40) and the bodies the BFF sends it. Categories and states
 * are the plain constants of `../support.ts`; here they are read as text so a new value never breaks
 * an old reader.
 */

/** One message of a thread: who wrote it (`member` or `operator`; an operator's id only in operators' views). */
export const ticketMessage = z.looseObject({
  id: z.number().int(),
  author: z.enum(['member', 'operator']),
  body: z.string(),
  createdAt: isoDateText,
});

/** A ticket in a list: no messages, the last one's time and who must act. */
export const ticketSummary = z.looseObject({
  id: z.number().int(),
  userId: z.string(),
  category: z.string(),
  title: z.string(),
  status: z.string(),
  orderIds: z.array(z.number().int()),
  /** The member has an operator's answer they have not opened yet. */
  unread: z.boolean(),
  messageCount: z.number().int(),
  createdAt: isoDateText,
  lastMessageAt: isoDateText,
});

export const ticketDetail = ticketSummary.extend({ messages: z.array(ticketMessage) });

export const ticketPage = page(ticketSummary);
export const ticketUnread = z.looseObject({ count: z.number().int() });

export const savedReply = z.looseObject({ id: z.number().int(), title: z.string(), body: z.string(), updatedAt: isoDateText });
export const savedReplyList = z.looseObject({ items: z.array(savedReply) });

export type TicketMessageBody = z.infer<typeof ticketMessage>;
export type TicketSummaryBody = z.infer<typeof ticketSummary>;
export type TicketDetailBody = z.infer<typeof ticketDetail>;
export type TicketPageBody = z.infer<typeof ticketPage>;
export type SavedReplyBody = z.infer<typeof savedReply>;

/**
 * `POST /tickets`: order ids the BFF has checked against the order service as the member (their
 * own orders, each found); support keeps them as they came. Text fields read as absent when not text.
 */
export const openTicketRequest = requestBody({
  category: requestText(),
  title: requestText(),
  body: requestText(),
  orderIds: z.array(z.number().int().positive()).max(20).optional().catch(undefined),
});
export type OpenTicketRequest = z.input<typeof openTicketRequest>;

/** `POST /tickets/:id/messages` and `POST /admin/tickets/:id/replies`. */
export const ticketMessageRequest = requestBody({ body: requestText() });
export type TicketMessageRequest = z.input<typeof ticketMessageRequest>;

/** `POST /admin/saved-replies`, `PATCH /admin/saved-replies/:id`. */
export const savedReplyRequest = requestBody({ title: requestText(), body: requestText() });
export type SavedReplyRequest = z.input<typeof savedReplyRequest>;

/** The console's ticket: the member's login id and the linked orders (null when order did not answer). */
export type AdminTicketBody = TicketSummaryBody & {
  loginId: string | null;
  /** Operators' answers name the operator by login id. */
  messages: Array<TicketMessageBody & { authorLoginId: string | null }>;
  /** As order holds them now (an order or an auto order; `status` a code of statuses.ts, null until paid). */
  orders: Array<{ id: number; kind: 'order' | 'auto'; serviceText: string; link: string; amount: number; status: number | null; createdAt: string }> | null;
};
export type AdminTicketRowBody = TicketSummaryBody & { loginId: string | null };
