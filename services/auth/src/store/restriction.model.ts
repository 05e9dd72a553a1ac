import { Schema } from 'mongoose';
import type { Connection, Model } from 'mongoose';
import { type RestrictionLevel, restrictionLevels } from '@smm/contracts';
import { modelOn } from '@smm/platform';

/**
 * One change of a member's restriction, kept for good (issue 12: history). `level` null: lifted.
 * The member document holds only the restriction in force.
 */
export type RestrictionRecordDoc = {
  _id: string;
  userId: string;
  level: RestrictionLevel | null;
  previousLevel: RestrictionLevel | null;
  reason: string;
  until: Date | null;
  changedBy: string;
  changedByLoginId: string;
  at: Date;
};

const restrictionRecordSchema = new Schema<RestrictionRecordDoc>(
  {
    _id: { type: String, required: true },
    userId: { type: String, required: true },
    level: { type: String, enum: [...restrictionLevels, null], default: null },
    previousLevel: { type: String, enum: [...restrictionLevels, null], default: null },
    reason: { type: String, required: true },
    until: { type: Date, default: null },
    changedBy: { type: String, required: true },
    changedByLoginId: { type: String, required: true },
    at: { type: Date, required: true },
  },
  { collection: 'member_restrictions', versionKey: false },
);
// A member's history, newest first.
restrictionRecordSchema.index({ userId: 1, at: -1 });

export function restrictionRecordModel(connection: Connection): Model<RestrictionRecordDoc> {
  return modelOn(connection, 'MemberRestriction', restrictionRecordSchema);
}
