import type { AdminTicketBody, AdminTicketRowBody, SavedReplyBody } from '@smm/contracts/http';

/** The console's ticket views, as the BFF composes them (@smm/contracts/http). */
export type AdminTicket = AdminTicketBody;
export type AdminTicketRow = AdminTicketRowBody;
export type SavedReply = SavedReplyBody;
