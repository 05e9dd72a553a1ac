import { type TicketStatus, ticketCategoryLabels, ticketStatusLabels } from '../lib/contracts.ts';
import * as ui from './ui.css.ts';

const tone: Record<TicketStatus, keyof typeof ui.badge> = { open: 'warning', answered: 'success', closed: 'neutral' };

export function TicketStatusBadge({ status }: { status: string }) {
  const known = status in ticketStatusLabels ? (status as TicketStatus) : null;
  return <span className={ui.badge[known ? tone[known] : 'neutral']}>{known ? ticketStatusLabels[known] : status}</span>;
}

export const categoryLabel = (category: string) => ticketCategoryLabels[category as keyof typeof ticketCategoryLabels] ?? category;
