import { z } from 'zod';
import { auditActions, auditTargetTypes } from '../audit-actions.ts';
import { defineEvent } from '../envelope.ts';
import { operatorRoles } from '../roles.ts';

/** The fields an action changed, by name; null for "did not exist" (before a create, after a delete). */
const fields = z.record(z.string(), z.unknown()).nullable();

/**
 * An operator changed something (issue 12). Written by the service that made the change, in the
 * change's own transaction, to the `audit` topic (aggregate id: the target's id); auth keeps the
 * searchable log. `before`/`after` hold only the fields the action concerns, never a secret.
 */
export const OperatorActed = defineEvent(
  'OperatorActed',
  1,
  z.object({
    actor: z.object({ userId: z.string().min(1), role: z.enum(operatorRoles) }),
    /** The service that made the change. */
    service: z.string().min(1),
    action: z.enum(auditActions),
    target: z.object({ type: z.enum(auditTargetTypes), id: z.string().min(1) }),
    before: fields,
    after: fields,
    /**
     * The member a money action benefits or concerns (issue 39): the top-up's, deposit's,
     * balance's or refunded order's owner. Absent on actions that move no member's money.
     */
    beneficiaryId: z.string().min(1).nullable().optional(),
  }),
);

export const auditEvents = [OperatorActed] as const;
