/**
 * Support tickets (1:1 문의, issue 40): categories, states and the limits the service enforces.
 * Plain constants (no zod) so the web app imports this module for its labels and form limits.
 */
export const ticketCategories = ['order', 'payment', 'account', 'other'] as const;
export type TicketCategory = (typeof ticketCategories)[number];
export const ticketCategoryLabels: Record<TicketCategory, string> = { order: '주문', payment: '결제', account: '계정', other: '기타' };

/** open: waiting for an operator; answered: an operator wrote last; closed: no more messages. */
export const ticketStatuses = ['open', 'answered', 'closed'] as const;
export type TicketStatus = (typeof ticketStatuses)[number];
export const ticketStatusLabels: Record<TicketStatus, string> = { open: '답변 대기', answered: '답변 완료', closed: '종료' };

/** Lengths a form can check before sending; the service checks them again. */
export const ticketLimits = {
  titleMax: 100,
  bodyMax: 2000,
  /** Order numbers one ticket may name. */
  ordersMax: 5,
  /** Messages in one thread; past it the member opens a new ticket. */
  messagesMax: 100,
  savedReplyTitleMax: 50,
} as const;
