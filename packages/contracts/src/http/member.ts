import { z } from 'zod';
import { restrictionBody } from './common.ts';

/**
 * Answers the BFF composes for the members' web app (bff/API.md) rather than relaying one service's
 * answer as it came. The BFF states them with `satisfies`; the web app reads their types.
 */

/** `GET /api/auth/profile`: auth's profile with wallet's balance (`point` in won, `pointDeci` exact). */
export const memberProfile = z.object({
  id: z.string(),
  point: z.number(),
  pointDeci: z.number().int(),
  /** Masked; the full key is shown once, when it is issued. */
  apiKey: z.string().nullable(),
  referralCode: z.string().nullable(),
  userId: z.string(),
  role: z.enum(['member', 'staff', 'admin']),
  email: z.string().nullable(),
  /** A warning from the operators (issue 12); a suspended or banned member gets no profile. */
  restriction: restrictionBody.nullable(),
  /** Operators only (issue 41): the console areas they may open (an admin all of them). */
  areas: z.array(z.string()).optional(),
});
export type MemberProfileBody = z.infer<typeof memberProfile>;
