import { type OperatorArea, isOperatorArea, isOperatorRole, operatorAreas } from '@smm/contracts';
import { messages } from '../messages.ts';
import { type RuleResult, violation } from './rule-error.ts';

/**
 * The console areas an operator may touch (issue 41): an admin all of them; a staff member those an
 * admin gave (absent: all, as staff had before areas existed); a member none.
 */
export function areasOf(member: { role: string; areas?: readonly OperatorArea[] | undefined }): OperatorArea[] {
  if (member.role === 'admin') return [...operatorAreas];
  if (member.role !== 'staff') return [];
  return member.areas === undefined ? [...operatorAreas] : operatorAreas.filter((a) => member.areas!.includes(a));
}

export type OperatorAccess = { role: 'staff' | 'admin' | 'member'; areas: OperatorArea[] };

/**
 * What an admin asked an account to become: staff (with at least one known area), admin, or back
 * to a member. Unknown or repeated areas are refused rather than dropped, so the screen and the
 * stored value never differ.
 */
export function checkOperatorAccess(input: { role?: unknown; areas?: unknown }, allowMember: boolean): RuleResult<OperatorAccess> {
  const role = input.role;
  if (role !== 'staff' && role !== 'admin' && !(allowMember && role === 'member')) return violation('role', 'ROLE_INVALID', messages.operatorRoleInvalid);
  if (role !== 'staff') return { ok: true, value: { role, areas: [] } };
  const areas = input.areas;
  if (!Array.isArray(areas) || areas.length === 0) return violation('areas', 'AREAS_REQUIRED', messages.areasRequired);
  if (!areas.every(isOperatorArea) || new Set(areas).size !== areas.length) return violation('areas', 'AREAS_INVALID', messages.areasInvalid);
  return { ok: true, value: { role, areas: operatorAreas.filter((a) => areas.includes(a)) } };
}

/** A new operator's login id: the sign-up rules' id rules (no spaces, ≤ 50, not a social prefix). */
export function checkOperatorLoginId(value: unknown): RuleResult<string> {
  const id = typeof value === 'string' ? value.trim() : '';
  if (id === '') return violation('loginId', 'ID_REQUIRED', messages.idRequired);
  if (/\s/.test(id)) return violation('loginId', 'ID_HAS_SPACE', messages.idHasSpace);
  if (id.length > 50) return violation('loginId', 'ID_TOO_LONG', messages.idTooLong);
  if (/^(naver|kakao)_/i.test(id)) return violation('loginId', 'ID_RESERVED', messages.idReserved);
  return { ok: true, value: id };
}

export const isActiveAdmin = (member: { role: string; disabledAt?: Date | null | undefined }): boolean => member.role === 'admin' && !member.disabledAt;
export const isOperator = (member: { role: string }): boolean => isOperatorRole(member.role);
