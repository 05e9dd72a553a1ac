/**
 * The restriction levels of the terms (issue 12): a warning (shown to the member, blocks nothing),
 * a temporary suspension until a date and a permanent ban. Auth owns them; the BFF enforces them on
 * every web and reseller request; the web app shows them. Plain code, so the browser imports it.
 */
export const restrictionLevels = ['warning', 'suspended', 'banned'] as const;
export type RestrictionLevel = (typeof restrictionLevels)[number];

/** A member's restriction as services exchange it: `until` (ISO) only for a suspension. */
export type Restriction = { level: RestrictionLevel; reason: string; until: string | null };

export const restrictionReasonMaxLength = 200;

export const restrictionLevelLabels: Record<RestrictionLevel, string> = {
  warning: '경고',
  suspended: '기간 정지',
  banned: '영구 정지',
};

export const isRestrictionLevel = (value: unknown): value is RestrictionLevel => typeof value === 'string' && (restrictionLevels as readonly string[]).includes(value);

/**
 * True while the restriction keeps the member out: a ban always, a suspension until its end
 * (the moment itself is already free), a warning never.
 */
export function restrictionBlocks(restriction: Restriction | null | undefined, now: Date): boolean {
  if (!restriction) return false;
  if (restriction.level === 'banned') return true;
  if (restriction.level === 'suspended') return restriction.until !== null && Date.parse(restriction.until) > now.getTime();
  return false;
}

const kstOffsetMs = 9 * 60 * 60 * 1000;
const pad = (n: number) => String(n).padStart(2, '0');

/** `yyyy-mm-dd hh:mm:ss KST` (UTC+9, no daylight saving), whatever the machine's zone. */
export function kstDateTime(value: string | Date): string {
  const k = new Date(new Date(value).getTime() + kstOffsetMs);
  return `${k.getUTCFullYear()}-${pad(k.getUTCMonth() + 1)}-${pad(k.getUTCDate())} ${pad(k.getUTCHours())}:${pad(k.getUTCMinutes())}:${pad(k.getUTCSeconds())} KST`;
}

/** What a member kept out is told, at log-in, on the web and in the reseller API: level, reason and, for a suspension, until when. */
export function restrictionMessage(restriction: Restriction): string {
  if (restriction.level === 'suspended' && restriction.until !== null) {
    return `이용이 정지된 계정입니다(기간 정지, ${kstDateTime(restriction.until)}까지). 사유: ${restriction.reason}`;
  }
  if (restriction.level === 'banned') return `이용이 영구 정지된 계정입니다. 사유: ${restriction.reason}`;
  return `운영 정책 위반으로 경고를 받았습니다. 사유: ${restriction.reason}`;
}
