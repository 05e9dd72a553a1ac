import { z } from 'zod';
import { defineEvent } from '../envelope.ts';

export const memberRoles = ['member', 'admin'] as const;
export type MemberRole = (typeof memberRoles)[number];
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
  }),
);

/** The member's API key was replaced; the old key stopped working. Never carries the key. */
export const ApiKeyRotated = defineEvent('ApiKeyRotated', 1, z.object({ userId: z.string().min(1), keyPrefix: z.string() }));

/** The member received a referral code to share. */
export const ReferralCodeIssued = defineEvent('ReferralCodeIssued', 1, z.object({ userId: z.string().min(1), referralCode: z.string().min(1) }));

export const authEvents = [UserRegistered, ApiKeyRotated, ReferralCodeIssued] as const;
