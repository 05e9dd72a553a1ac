import { Schema } from 'mongoose';
import type { Connection, Model } from 'mongoose';
import { modelOn } from '@smm/platform';

/** One operator action in the searchable log; `_id` is the OperatorActed event's id. */
export type AuditRecord = {
  _id: string;
  at: Date;
  actorId: string;
  actorRole: 'staff' | 'admin';
  service: string;
  action: string;
  targetType: string;
  targetId: string;
  before: Record<string, unknown> | null;
  after: Record<string, unknown> | null;
  /** The member a money action benefits (issue 39); null when the action names none. */
  beneficiaryId?: string | null;
  correlationId: string;
};

const auditRecordSchema = new Schema<AuditRecord>(
  {
    _id: { type: String, required: true },
    at: { type: Date, required: true },
    actorId: { type: String, required: true },
    actorRole: { type: String, required: true },
    service: { type: String, required: true },
    action: { type: String, required: true },
    targetType: { type: String, required: true },
    targetId: { type: String, required: true },
    before: { type: Schema.Types.Mixed, default: null },
    after: { type: Schema.Types.Mixed, default: null },
    beneficiaryId: { type: String, default: null },
    correlationId: { type: String, required: true },
  },
  { collection: 'audit_records', versionKey: false, minimize: false },
);
// Newest first, alone or after one equality filter: each search the console offers is an index
// walk in `at` order that stops after a page.
auditRecordSchema.index({ at: -1, _id: -1 });
auditRecordSchema.index({ actorId: 1, at: -1, _id: -1 });
// One operator's actions of one kind: the console's most common combined filter.
auditRecordSchema.index({ actorId: 1, action: 1, at: -1, _id: -1 });
auditRecordSchema.index({ action: 1, at: -1, _id: -1 });
auditRecordSchema.index({ targetId: 1, at: -1, _id: -1 });
// Every money action that benefited one member (issue 39).
auditRecordSchema.index({ beneficiaryId: 1, at: -1, _id: -1 });

export function auditRecordModel(connection: Connection): Model<AuditRecord> {
  return modelOn(connection, 'AuditRecord', auditRecordSchema);
}
