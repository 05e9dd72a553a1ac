import { Schema } from 'mongoose';

export type Notice = { _id: number; content: string; isTop: boolean; sortOrder: number };
export type Faq = { _id: number; title: string; answer: string; sortOrder: number };
export type RegisterWhere = { _id: number; text: string; sortOrder: number };
/** A site setting (spec §3 keys only); flags hold "true"/"false". */
export type Setting = { _id: string; value: string };

const options = { versionKey: false, timestamps: true } as const;

export const noticeSchema = new Schema<Notice>(
  {
    _id: { type: Number, required: true },
    content: { type: String, required: true },
    isTop: { type: Boolean, required: true },
    sortOrder: { type: Number, required: true },
  },
  { ...options, collection: 'notices' },
);

export const faqSchema = new Schema<Faq>(
  {
    _id: { type: Number, required: true },
    title: { type: String, required: true },
    answer: { type: String, required: true },
    sortOrder: { type: Number, required: true },
  },
  { ...options, collection: 'faqs' },
);

export const registerWhereSchema = new Schema<RegisterWhere>(
  {
    _id: { type: Number, required: true },
    text: { type: String, required: true },
    sortOrder: { type: Number, required: true },
  },
  { ...options, collection: 'register_where' },
);

export const settingSchema = new Schema<Setting>(
  { _id: { type: String, required: true }, value: { type: String, default: '' } },
  { ...options, collection: 'settings' },
);
