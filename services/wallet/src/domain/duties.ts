import { countSetting, formatWon, settingKeys } from '@smm/contracts';
import { type Problem, messages, problem } from './messages.ts';

/**
 * Separation of duties (issue 39): no operator moves money for their own account, and a staff
 * member approves only up to the admin's limit (STAFF_APPROVAL_LIMIT_WON); above it an admin must.
 * Checked by the wallet itself, in the transaction that would credit, whatever the caller checked.
 */
export type Actor = { userId: string | null; role: string | null };

/**
 * The refusal for `actor` crediting (or deciding for) `beneficiaryId` by `creditDeci`, or null.
 * `creditDeci` null: a decision that credits nothing (a rejection), so only the self rule applies.
 */
export function dutyProblem(actor: Actor, beneficiaryId: string, creditDeci: number | null, staffLimitSetting: string | undefined): Problem | null {
  if (actor.userId !== null && actor.userId === beneficiaryId) return problem('SELF_ACTION', messages.selfAction);
  if (actor.role === 'staff' && creditDeci !== null) {
    const limitWon = countSetting(settingKeys.staffApprovalLimitWon, staffLimitSetting);
    if (creditDeci > limitWon * 10) return problem('STAFF_LIMIT', `${messages.staffLimitPrefix} ${formatWon(limitWon * 10)}${messages.staffLimitSuffix}`);
  }
  return null;
}
