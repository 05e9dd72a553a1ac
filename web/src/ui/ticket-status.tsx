import { type TicketStatus, ticketCategoryLabels, ticketStatusLabels } from '../lib/contracts.ts';
import { dateTime } from '../lib/format.ts';
import * as th from './thread.css.ts';
import * as ui from './ui.css.ts';

const tone: Record<TicketStatus, keyof typeof ui.badge> = { open: 'warning', answered: 'success', closed: 'neutral' };

export function TicketStatusBadge({ status }: { status: string }) {
  const known = status in ticketStatusLabels ? (status as TicketStatus) : null;
  return <span className={ui.badge[known ? tone[known] : 'neutral']}>{known ? ticketStatusLabels[known] : status}</span>;
}

export const categoryLabel = (category: string) => ticketCategoryLabels[category as keyof typeof ticketCategoryLabels] ?? category;

type ThreadMessage = { id: string | number; author: string; body: string; createdAt: string };

/**
 * A ticket's thread as chat bubbles, the reader's own messages on their side (`mine`): the member's
 * ticket page and the console's ticket page show the same thread from either end.
 */
export function TicketThread<M extends ThreadMessage>({ messages, mine, who, label, testId }: { messages: readonly M[]; mine: string; who: (m: M) => string; label: string; testId: string }) {
  return (
    <ol className={th.thread} aria-label={label} data-testid={testId}>
      {messages.map((m) => (
        <li key={m.id} className={`${th.bubble} ${m.author === mine ? th.mine : th.theirs}`} data-author={m.author}>
          <span className={th.who}>
            <span>{who(m)}</span>
            <span>{dateTime(m.createdAt)}</span>
          </span>
          <span className={th.body}>{m.body}</span>
        </li>
      ))}
    </ol>
  );
}
