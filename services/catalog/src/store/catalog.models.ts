import { Schema } from 'mongoose';
import { type ServiceType, serviceTypes } from '@smm/contracts';

/** Platform ids are the fixed 1–14 of spec §3; the icon follows from the id (domain/platform-icons). */
export type Platform = { _id: number; text: string; background: string; visible: boolean; sortOrder: number };
export type Category = { _id: number; text: string; platformId: number; sortOrder: number };
/** A product. Money is an integer count of 0.1 won (`unitPriceDeci`), never a float. */
export type Service = {
  _id: number;
  text: string;
  categoryId: number;
  min: number;
  max: number;
  unitPriceDeci: number;
  notice: string;
  enableAuto: boolean;
  isReadOnly: boolean;
  visible: boolean;
  sortOrder: number;
  /** What the member gives besides the link; products stored before types have none and are default. */
  type?: ServiceType;
};

const options = { versionKey: false, timestamps: true } as const;

export const platformSchema = new Schema<Platform>(
  {
    _id: { type: Number, required: true },
    text: { type: String, required: true },
    background: { type: String, required: true },
    visible: { type: Boolean, required: true },
    sortOrder: { type: Number, required: true },
  },
  { ...options, collection: 'platforms' },
);

export const categorySchema = new Schema<Category>(
  {
    _id: { type: Number, required: true },
    text: { type: String, required: true },
    platformId: { type: Number, required: true, index: true },
    sortOrder: { type: Number, required: true },
  },
  { ...options, collection: 'categories' },
);

export const serviceSchema = new Schema<Service>(
  {
    _id: { type: Number, required: true },
    text: { type: String, required: true },
    categoryId: { type: Number, required: true, index: true },
    min: { type: Number, required: true },
    max: { type: Number, required: true },
    unitPriceDeci: { type: Number, required: true },
    notice: { type: String, default: '' },
    enableAuto: { type: Boolean, required: true },
    isReadOnly: { type: Boolean, required: true },
    visible: { type: Boolean, required: true },
    sortOrder: { type: Number, required: true },
    type: { type: String, enum: serviceTypes, default: 'default' },
  },
  { ...options, collection: 'services' },
);
