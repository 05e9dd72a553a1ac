import { z } from 'zod';
import { defineEvent } from '../envelope.ts';
import { memberRoles } from '../roles.ts';
import { restrictionLevels } from '../restriction.ts';

export const signUpProviders = ['local', 'naver', 'kakao'] as const;

/** A member account now exists; wallet opens a point account for `userId` (the aggregate id). */
export const UserRegistered = defineEvent(
  'UserRegistered',
  1,
  z.object({
    userId: z.string().min(1),
    loginId: z.string().min(1),
    email: z.string().nullable(),
    role: z.enum(memberRoles),
    provider: z.enum(signUpProviders),
    registerWhere: z.string().nullable(),
    /** The referral code the member signed up with, if any. */
    referredBy: z.string().nullable(),
    /** The member whose code `referredBy` is (resolved by auth); absent on events written before it existed. */
    referrerId: z.string().min(1).nullable().optional(),
  }),
);

/** The member's API key was replaced; the old key stopped working. Never carries the key. */
export const ApiKeyRotated = defineEvent('ApiKeyRotated', 1, z.object({ userId: z.string().min(1), keyPrefix: z.string() }));

/** The member received a referral code to share. */
export const ReferralCodeIssued = defineEvent('ReferralCodeIssued', 1, z.object({ userId: z.string().min(1), referralCode: z.string().min(1) }));

/**
 * An operator set or lifted a member's restriction (warning, suspension until `until`, ban).
 * `level` null: lifted. `previousLevel`: what was in force before (null: none). `changedBy`: the operator's user id.
 */
export const MemberRestrictionChanged = defineEvent(
  'MemberRestrictionChanged',
  1,
  z.object({
    userId: z.string().min(1),
    level: z.enum(restrictionLevels).nullable(),
    previousLevel: z.enum(restrictionLevels).nullable(),
    reason: z.string().min(1),
    /** ISO instant; only for a suspension. */
    until: z.string().nullable(),
    changedBy: z.string().min(1),
  }),
);

export const authEvents = [UserRegistered, ApiKeyRotated, ReferralCodeIssued, MemberRestrictionChanged] as const;
