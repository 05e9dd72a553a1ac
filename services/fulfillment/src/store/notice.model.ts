import { Schema } from 'mongoose';
import type { Connection, Model } from 'mongoose';
import { modelOn } from '@smm/platform';

export const noticeKinds = ['repriced', 'suspended', 'resumed', 'balance-low'] as const;
export type NoticeKind = (typeof noticeKinds)[number];

/**
 * Something the periodic tasks did that operators must know about (issue 11: the price sync
 * "tells operators"), written in the transaction of the event that announces it. `text` is Korean,
 * as the providers screen shows it; `readAt` is set when an operator marks the list read.
 */
export type Notice = {
  _id: string;
  kind: NoticeKind;
  providerId: number;
  productId: number | null;
  text: string;
  createdAt: Date;
  readAt: Date | null;
};

const noticeSchema = new Schema<Notice>(
  {
    _id: { type: String, required: true },
    kind: { type: String, required: true, enum: noticeKinds },
    providerId: { type: Number, required: true },
    productId: { type: Number, default: null },
    text: { type: String, required: true },
    createdAt: { type: Date, required: true },
    readAt: { type: Date, default: null },
  },
  { collection: 'notices', versionKey: false, minimize: false },
);
// The screen's newest-first list and the dashboard's unread count.
noticeSchema.index({ createdAt: -1 });
noticeSchema.index({ readAt: 1, createdAt: -1 });

export function notices(connection: Connection): Model<Notice> {
  return modelOn(connection, 'Notice', noticeSchema);
}
