import type { FulfillmentNoticeListBody } from '@smm/contracts/http';
import { randomUUID } from 'node:crypto';
import type { ClientSession } from 'mongoose';
import { type Notice, type NoticeKind, notices } from '../store/notice.model.ts';
import type { FulfillmentDeps } from './context.ts';

/** Adds a notice inside the caller's transaction (the one that also appends its event). */
export async function addNotice(deps: Pick<FulfillmentDeps, 'connection'>, session: ClientSession, notice: { kind: NoticeKind; providerId: number; productId: number | null; text: string }): Promise<void> {
  await notices(deps.connection).create([{ _id: randomUUID(), ...notice, createdAt: new Date(), readAt: null }], { session });
}

const view = (n: Notice) => ({ id: n._id, kind: n.kind, providerId: n.providerId, productId: n.productId, text: n.text, createdAt: n.createdAt.toISOString(), read: n.readAt !== null });

/** The providers screen's notice list (newest first) and the dashboard's unread count. */
export async function listNotices(deps: FulfillmentDeps, limit: number) {
  const model = notices(deps.connection);
  const [items, unread] = await Promise.all([model.find().sort({ createdAt: -1 }).limit(limit).lean<Notice[]>(), model.countDocuments({ readAt: null })]);
  return { unread, items: items.map(view) } satisfies FulfillmentNoticeListBody;
}

/** An operator has seen the list: everything unread until now is marked read. */
export async function markNoticesRead(deps: FulfillmentDeps): Promise<{ read: number }> {
  const now = new Date();
  const result = await notices(deps.connection).updateMany({ readAt: null, createdAt: { $lte: now } }, { $set: { readAt: now } });
  return { read: result.modifiedCount };
}
