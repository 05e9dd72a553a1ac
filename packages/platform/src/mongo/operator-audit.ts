import type { ClientSession, Connection } from 'mongoose';
import { type AuditAction, type AuditTargetType, type EventOf, type EventOrigin, OperatorActed, Topics, isOperatorRole } from '@smm/contracts';
import type { ServiceCaller } from '../http/service-auth.ts';
import { appendToOutbox, outboxModel } from './outbox.ts';

export type AuditFields = Record<string, unknown> | null;

export type OperatorAction = {
  /** The verified caller of the request (req.caller); only an operator's action is recorded. */
  caller: Pick<ServiceCaller, 'userId' | 'role'>;
  action: AuditAction;
  target: { type: AuditTargetType; id: string };
  /** The relevant fields before and after the change; see `auditDiff` for an update. */
  before: AuditFields;
  after: AuditFields;
  /** The member a money action benefits (issue 39); the audit log shows it. */
  beneficiaryId?: string | null;
};

/** Names that never leave a service in an audit record, whatever a use case passes by mistake. */
const secretName = /(secret|password|token|apikey|api_key|cipher)/i;

function withoutSecrets(fields: AuditFields): AuditFields {
  if (fields === null) return null;
  return Object.fromEntries(Object.entries(fields).filter(([name]) => !secretName.test(name)).map(([name, value]) => [name, jsonSafe(value)]));
}

/** Dates as ISO text, nested objects kept: the record is JSON on the wire. */
function jsonSafe(value: unknown): unknown {
  if (value instanceof Date) return value.toISOString();
  if (value === undefined) return null;
  return value;
}

const same = (a: unknown, b: unknown) => JSON.stringify(jsonSafe(a)) === JSON.stringify(jsonSafe(b));

/**
 * For an update: of the `fields` named, those whose value differs between the two documents, as
 * the before and after of one record (an update that changed nothing gives two empty objects).
 */
export function auditDiff<T extends object>(before: T, after: T, fields: ReadonlyArray<keyof T & string>): { before: Record<string, unknown>; after: Record<string, unknown> } {
  const b: Record<string, unknown> = {};
  const a: Record<string, unknown> = {};
  for (const name of fields) {
    const was = (before as Record<string, unknown>)[name];
    const is = (after as Record<string, unknown>)[name];
    if (same(was, is)) continue;
    b[name] = jsonSafe(was);
    a[name] = jsonSafe(is);
  }
  return { before: b, after: a };
}

/** The named fields of a document, for the before of a delete or the after of a create. */
export function auditFields<T extends object>(doc: T, fields: ReadonlyArray<keyof T & string>): Record<string, unknown> {
  return Object.fromEntries(fields.map((name) => [name, jsonSafe((doc as Record<string, unknown>)[name])]));
}

/**
 * Records an operator's action for the audit log (issue 12): an OperatorActed event on the audit
 * topic, in the caller's transaction through the service's outbox, so a record exists exactly when
 * the change committed. A caller that is not an operator (a service acting on its own, a member)
 * records nothing and the answer is false. Call the relay's `kick()` after the commit as usual.
 */
export async function recordOperatorAction(connection: Connection, session: ClientSession, act: OperatorAction, origin: EventOrigin): Promise<boolean> {
  const { userId, role } = act.caller;
  if (userId === null || !isOperatorRole(role)) return false;
  const event = OperatorActed.create(
    act.target.id,
    {
      actor: { userId, role: role as 'staff' | 'admin' },
      // The action names its area, which is the service that owns it.
      service: act.action.split('.')[0]!,
      action: act.action,
      target: act.target,
      before: withoutSecrets(act.before),
      after: withoutSecrets(act.after),
      ...(act.beneficiaryId ? { beneficiaryId: act.beneficiaryId } : {}),
    },
    origin,
  );
  await appendToOutbox(connection, session, Topics.audit, [event]);
  return true;
}

/**
 * The audit records this service's outbox holds about one target, oldest first (support, and the
 * services' tests: what a change committed with it). Published records stay readable for the
 * outbox's retention.
 */
export async function auditRecordsInOutbox(connection: Connection, targetId: string, targetType?: AuditTargetType): Promise<Array<OperatorActedData>> {
  const filter = { topic: Topics.audit, 'event.data.target.id': targetId, ...(targetType && { 'event.data.target.type': targetType }) };
  const rows = await outboxModel(connection).collection.find(filter, { sort: { _id: 1 } }).toArray();
  return rows.map((r) => OperatorActed.data.parse((r.event as { data: unknown }).data));
}
export type OperatorActedData = EventOf<typeof OperatorActed>['data'];
