import type { AuditRowBody } from '@smm/contracts/http';
import { count, dateTime, won } from '../../../lib/format.ts';
import { type TicketStatus, ticketStatusLabels } from '../../../lib/contracts.ts';
import { ChargeStatus, OrderStatus } from '../../../lib/statuses.ts';
import { auditText as t } from './messages.ts';

/** One entry of GET /api/admin/audit, relayed as auth sends it (@smm/contracts/http). */
export type AuditRow = AuditRowBody;

/** One changed field as a person reads it: its Korean name, the value before and after (null: the record names none, e.g. a reason given with the change). */
export type FieldChange = { field: string; label: string; before: string | null; after: string | null };

const isoInstant = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}/;

/**
 * A recorded value in Korean: money in won (a provider's rate too: `wonDeciPerUnit` is deci-won, so
 * a rate of 1 reads "1원", not "10"), statuses and codes by name, yes/no, Korean time, and a
 * member by login id (`logins`: the record's known members) rather than by UUID (issue 41).
 */
export function readable(field: string, value: unknown, targetType: string, logins: Readonly<Record<string, string>> = {}): string {
  // A member's rate for every product (issue 40) names no product.
  if (value === null && field === 'serviceId' && targetType === 'member') return t.allProducts;
  if (value === null || value === undefined) return t.none;
  if (typeof value === 'boolean') return field === 'keyReplaced' ? t.keyReplaced : value ? t.yes : t.no;
  if (typeof value === 'number') {
    if (field.endsWith('Deci') || field === 'wonDeciPerUnit') return won(value);
    if (field === 'status' && targetType === 'topup' && ChargeStatus.is(value)) return ChargeStatus.label(value);
    if (field === 'status' && (targetType === 'order' || targetType === 'provider') && OrderStatus.is(value)) return OrderStatus.label(value);
    return count(value);
  }
  if (typeof value === 'string') {
    if (field === 'role') return t.roles[value] ?? value;
    if (field === 'decision') return t.decisions[value] ?? value;
    if (field === 'userId') return logins[value] ?? value;
    if (field === 'status' && targetType === 'ticket') return ticketStatusLabels[value as TicketStatus] ?? value;
    const named = t.values[field]?.[value];
    if (named !== undefined) return named;
    if (isoInstant.test(value)) return dateTime(value);
    return value;
  }
  if (Array.isArray(value)) return value.length === 0 ? t.none : value.map((v) => readable(field, v, targetType, logins)).join(', ');
  return JSON.stringify(value);
}

/** The fields a record names, in the order written, each with its value before and after. */
export function changesOf(row: AuditRow): FieldChange[] {
  const names = [...new Set([...Object.keys(row.before ?? {}), ...Object.keys(row.after ?? {})])];
  const logins: Record<string, string> = { ...row.memberLogins };
  if (row.beneficiary?.loginId) logins[row.beneficiary.userId] = row.beneficiary.loginId;
  if (row.target.loginId) logins[row.target.id] = row.target.loginId;
  return names.map((field) => ({
    field,
    label: t.fields[field] ?? field,
    before: row.before === null || !(field in row.before) ? null : readable(field, row.before[field], row.target.type, logins),
    after: row.after === null || !(field in row.after) ? null : readable(field, row.after[field], row.target.type, logins),
  }));
}
