/**
 * Platform ids are fixed at 1–14 (spec §3) because the web app ships one icon per id. The key
 * names the image the web app shows; the operator chooses text, colour and visibility only.
 */
export const platformIcons = {
  1: 'instagram',
  2: 'youtube',
  3: 'tiktok',
  4: 'facebook',
  5: 'naver-blog',
  6: 'twitter',
  7: 'threads',
  8: 'kakaostory',
  9: 'naver-place',
  10: 'kakao-channel',
  11: 'telegram',
  12: 'twitch',
  13: 'soop',
  14: 'etc',
} as const satisfies Record<number, string>;

export const minPlatformId = 1;
export const maxPlatformId = 14;

export function isPlatformId(id: number): boolean {
  return Number.isInteger(id) && id >= minPlatformId && id <= maxPlatformId;
}

export function platformIcon(id: number): string {
  return (platformIcons as Record<number, string>)[id] ?? 'etc';
}
