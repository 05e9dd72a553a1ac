import { type Restriction, type RestrictionLevel, isRestrictionLevel, restrictionReasonMaxLength } from '@smm/contracts';
import { messages } from '../messages.ts';
import { type RuleResult, violation } from './rule-error.ts';

/** What an operator asks for: a level (or `none` to lift), a reason always, an end for a suspension. */
export type RestrictionChange = { level: RestrictionLevel | null; reason: string; until: Date | null };

/** A suspension ends at most this far ahead; longer than that is a ban. */
const maxSuspensionMs = 10 * 366 * 24 * 60 * 60 * 1000;

/** Checks an operator's restriction change (issue 12: mandatory reason; a suspension ends in the future). */
export function checkRestrictionChange(input: Record<string, unknown>, now: Date): RuleResult<RestrictionChange> {
  const rawLevel = input.level;
  if (rawLevel !== 'none' && !isRestrictionLevel(rawLevel)) return violation('level', 'RESTRICTION_LEVEL_INVALID', messages.restrictionLevelInvalid);
  const reason = typeof input.reason === 'string' ? input.reason.trim() : '';
  if (reason === '') return violation('reason', 'RESTRICTION_REASON_REQUIRED', messages.restrictionReasonRequired);
  if ([...reason].length > restrictionReasonMaxLength) return violation('reason', 'RESTRICTION_REASON_TOO_LONG', messages.restrictionReasonTooLong);
  const level = rawLevel === 'none' ? null : rawLevel;
  if (level !== 'suspended') return { ok: true, value: { level, reason, until: null } };
  // An instant with its offset (the console sends KST as +09:00), never a zone-less local time.
  const text = typeof input.until === 'string' ? input.until.trim() : '';
  const until = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d{1,3})?)?(Z|[+-]\d{2}:\d{2})$/.test(text) ? new Date(text) : null;
  if (until === null || Number.isNaN(until.getTime())) return violation('until', 'RESTRICTION_UNTIL_INVALID', messages.restrictionUntilInvalid);
  if (until.getTime() <= now.getTime()) return violation('until', 'RESTRICTION_UNTIL_PAST', messages.restrictionUntilPast);
  if (until.getTime() - now.getTime() > maxSuspensionMs) return violation('until', 'RESTRICTION_UNTIL_TOO_FAR', messages.restrictionUntilTooFar);
  return { ok: true, value: { level, reason, until } };
}

/** The restriction as stored on a member (and a ban from before restrictions had reasons). */
export type StoredRestriction = { level: RestrictionLevel; reason: string; until?: Date | null };

/**
 * The restriction in force at `now`: a warning or a ban as stored, a suspension until its end
 * (after it, none). A member banned through the older `status` field reads as a ban.
 */
export function restrictionInForce(member: { restriction?: StoredRestriction | null; status?: 'active' | 'banned' }, now: Date): Restriction | null {
  const r = member.restriction;
  if (r && !(r.level === 'suspended' && (!r.until || r.until.getTime() <= now.getTime()))) {
    return { level: r.level, reason: r.reason, until: r.level === 'suspended' && r.until ? r.until.toISOString() : null };
  }
  if (member.status === 'banned') return { level: 'banned', reason: messages.restrictionLegacyReason, until: null };
  return null;
}
