import { Schema } from 'mongoose';
import type { ClientSession, Connection, Model } from 'mongoose';
import type { TicketCategory, TicketStatus } from '@smm/contracts';
import { modelOn } from '@smm/platform';

export type MessageDoc = { id: number; author: 'member' | 'operator'; authorId: string; body: string; createdAt: Date };

/**
 * A ticket and its thread in one document: a thread is at most `ticketLimits.messagesMax` messages
 * of at most 2,000 characters (well under MongoDB's 16 MB), so one write changes the state, adds
 * the message and keeps the event with it.
 */
export type TicketDoc = {
  _id: number;
  userId: string;
  category: TicketCategory;
  title: string;
  status: TicketStatus;
  orderIds: number[];
  messages: MessageDoc[];
  /** `messages.length`, kept so lists need not load the threads. */
  messageCount: number;
  /** The member has an operator's message they have not opened. */
  memberUnread: boolean;
  createdAt: Date;
  lastMessageAt: Date;
  closedAt: Date | null;
};

const messageSchema = new Schema<MessageDoc>(
  {
    id: { type: Number, required: true },
    author: { type: String, required: true },
    authorId: { type: String, required: true },
    body: { type: String, required: true },
    createdAt: { type: Date, required: true },
  },
  { _id: false },
);

const ticketSchema = new Schema<TicketDoc>(
  {
    _id: { type: Number, required: true },
    userId: { type: String, required: true },
    category: { type: String, required: true },
    title: { type: String, required: true },
    status: { type: String, required: true },
    orderIds: { type: [Number], default: [] },
    messages: { type: [messageSchema], default: [] },
    messageCount: { type: Number, required: true },
    memberUnread: { type: Boolean, default: false },
    createdAt: { type: Date, required: true },
    lastMessageAt: { type: Date, required: true },
    closedAt: { type: Date, default: null },
  },
  { collection: 'tickets', versionKey: false },
);
// A member's own list (newest first) and unread count; the operators' queue by state and age.
ticketSchema.index({ userId: 1, _id: -1 });
ticketSchema.index({ userId: 1, memberUnread: 1 }, { partialFilterExpression: { memberUnread: true } });
ticketSchema.index({ status: 1, lastMessageAt: 1 });
ticketSchema.index({ orderIds: 1 });

/** A member's recent message times, for the per-minute limit; written with every member message, so a member's writes are serialised. */
type ActivityDoc = { _id: string; recent: Date[] };
const activitySchema = new Schema<ActivityDoc>({ _id: { type: String, required: true }, recent: { type: [Date], default: [] } }, { collection: 'member_activity', versionKey: false });

export type SavedReplyDoc = { _id: number; title: string; body: string; createdAt: Date; updatedAt: Date };
const savedReplySchema = new Schema<SavedReplyDoc>(
  {
    _id: { type: Number, required: true },
    title: { type: String, required: true },
    body: { type: String, required: true },
    createdAt: { type: Date, required: true },
    updatedAt: { type: Date, required: true },
  },
  { collection: 'saved_replies', versionKey: false },
);

type CounterDoc = { _id: string; seq: number };
const counterSchema = new Schema<CounterDoc>({ _id: { type: String, required: true }, seq: { type: Number, required: true } }, { collection: 'counters', versionKey: false });

/** The support database: tickets, members' recent activity, saved replies, id counters. */
export class Store {
  readonly tickets: Model<TicketDoc>;
  readonly activity: Model<ActivityDoc>;
  readonly savedReplies: Model<SavedReplyDoc>;
  private readonly counters: Model<CounterDoc>;

  constructor(readonly connection: Connection) {
    this.tickets = modelOn(connection, 'Ticket', ticketSchema);
    this.activity = modelOn(connection, 'MemberActivity', activitySchema);
    this.savedReplies = modelOn(connection, 'SavedReply', savedReplySchema);
    this.counters = modelOn(connection, 'Counter', counterSchema);
  }

  async init(): Promise<void> {
    await Promise.all([this.tickets.init(), this.activity.init(), this.savedReplies.init(), this.counters.init()]);
  }

  async nextId(name: 'ticket' | 'saved-reply', session: ClientSession): Promise<number> {
    const doc = await this.counters.findOneAndUpdate({ _id: name }, { $inc: { seq: 1 } }, { upsert: true, returnDocument: 'after', session }).lean();
    return doc!.seq;
  }
}
