/** A broken input rule: which field, a stable code and the Korean message the member sees. */
export type RuleViolation = { field: string; code: string; message: string };

export type RuleResult<T> = { ok: true; value: T } | { ok: false; violation: RuleViolation };

export const violation = (field: string, code: string, message: string): { ok: false; violation: RuleViolation } => ({
  ok: false,
  violation: { field, code, message },
});
