import { z } from 'zod';
import { defineEvent } from '../envelope.ts';

/**
 * An operator answered a member's support ticket (issue 40). Written by support with the answer,
 * in one transaction; the BFF's live channel shows it on the member's open pages at once.
 * Aggregate: `ticket-<ticketId>`. The answer's text stays in support (the event says only that there is one).
 */
export const TicketAnswered = defineEvent(
  'TicketAnswered',
  1,
  z.object({ ticketId: z.number().int().positive(), userId: z.string().min(1), messageId: z.number().int().positive() }),
);

/** A ticket was closed, by its member or an operator. Aggregate: `ticket-<ticketId>`. */
export const TicketClosed = defineEvent(
  'TicketClosed',
  1,
  z.object({ ticketId: z.number().int().positive(), userId: z.string().min(1), by: z.enum(['member', 'operator']) }),
);

export const supportEvents = [TicketAnswered, TicketClosed] as const;
