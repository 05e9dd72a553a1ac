/**
 * "2시간 13분 남음" until a pending request's 3-hour expiry, or null once it has passed (the
 * scheduler expires it within moments). Under a minute reads as "1분 미만 남음".
 */
export function timeLeft(expiresAt: string, now: number): string | null {
  const ms = Date.parse(expiresAt) - now;
  if (!Number.isFinite(ms) || ms <= 0) return null;
  const minutes = Math.floor(ms / 60_000);
  if (minutes < 1) return '1분 미만 남음';
  const hours = Math.floor(minutes / 60);
  return hours > 0 ? `${hours}시간 ${minutes % 60}분 남음` : `${minutes}분 남음`;
}

/** Less than 30 minutes left: the row is highlighted so an operator handles it first. */
export const isUrgent = (expiresAt: string, now: number): boolean => {
  const ms = Date.parse(expiresAt) - now;
  return ms > 0 && ms < 30 * 60_000;
};
