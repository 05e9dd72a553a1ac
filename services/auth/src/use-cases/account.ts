import { notFound, unauthorized } from '@smm/platform';
import { messages } from '../messages.ts';
import type { MemberDoc } from '../store/member.model.ts';
import type { AuthServices } from './context.ts';

/** The member the calling service acts for (its service credential); 401 without one, 404 when it no longer exists. */
export async function callingMember(services: AuthServices, userId: string | null): Promise<MemberDoc> {
  if (userId === null) throw unauthorized(messages.callerRequired, 'CALLER_REQUIRED');
  const member = await services.members.findById(userId);
  if (!member) throw notFound(messages.memberNotFound, 'MEMBER_NOT_FOUND');
  return member;
}
