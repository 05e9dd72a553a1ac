import { z } from 'zod';
import { messages } from '../messages.ts';

/**
 * Shapes of the public request bodies (spec §3, §7). The BFF checks only that fields have the right
 * type and keeps only the fields the spec names; the rules with their own messages (id required,
 * no spaces, 11-digit phone, 5-character code, ...) belong to auth, which answers in Korean.
 */
const field = (max = 4096) => z.string({ error: messages.badRequest }).max(max, { error: messages.badRequest }).nullish().transform((v) => v ?? undefined);
const body = <T extends z.ZodRawShape>(shape: T) => z.object(shape, { error: messages.badRequest });

export const loginBody = body({ id: field(), password: field() });
export const naverLoginBody = body({ code: field() });
export const kakaoLoginBody = body({ accessToken: field() });
export const changePasswordBody = body({ currentPassword: field(), newPassword: field() });
export const sendPhoneBody = body({ phoneNumber: field() });

const common = { registerWhere: field(), phoneNumber: field(), sendCode: field(), referral: field() };
export const registerBody = body({ id: field(), password: field(), email: field(), ...common });
export const socialRegisterBody = body({ ...common, accessToken: field() });

