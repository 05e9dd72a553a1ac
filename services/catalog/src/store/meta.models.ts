import { Schema } from 'mongoose';

/** Sequences for ids and sort positions, and the settings version readers poll. */
export type Counter = { _id: string; seq: number };

/**
 * One record per seed item ever created, kept even when the operator later edits or deletes the
 * item: its existence is what stops a restart from re-creating or resetting it.
 */
export type SeedRecord = { _id: string; entity: string; entityId: string; seededAt: Date };

export const counterSchema = new Schema<Counter>(
  { _id: { type: String, required: true }, seq: { type: Number, required: true } },
  { versionKey: false, collection: 'counters' },
);

export const seedRecordSchema = new Schema<SeedRecord>(
  {
    _id: { type: String, required: true },
    entity: { type: String, required: true },
    entityId: { type: String, required: true },
    seededAt: { type: Date, required: true },
  },
  { versionKey: false, collection: 'seed_records' },
);
