/**
 * Spec §5 "Other": a link not starting with https is a profile name on the product's platform,
 * linked under the platform's public profile address. Platform ids are the catalogue's fixed 1–14
 * (services/catalog/src/domain/platform-icons.ts); a platform without profile pages gives null.
 */
const profilePrefixes: Readonly<Record<number, string>> = {
  1: 'https://www.instagram.com/', // instagram
  2: 'https://www.youtube.com/@', // youtube
  3: 'https://www.tiktok.com/@', // tiktok
  4: 'https://www.facebook.com/', // facebook
  5: 'https://blog.naver.com/', // naver-blog
  6: 'https://x.com/', // twitter
  7: 'https://www.threads.net/@', // threads
  8: 'https://story.kakao.com/', // kakaostory
  9: 'https://m.place.naver.com/place/', // naver-place (place id)
  10: 'https://pf.kakao.com/', // kakao-channel
  11: 'https://t.me/', // telegram
  12: 'https://www.twitch.tv/', // twitch
  13: 'https://ch.sooplive.co.kr/', // soop
  // 14 etc: no public profile address
};

export function isUrlLink(link: string): boolean {
  return link.startsWith('https://');
}

export function linkUrl(link: string, platformId: number): string | null {
  if (isUrlLink(link)) return link;
  const prefix = profilePrefixes[platformId];
  if (prefix === undefined) return null;
  const name = link.trim().replace(/^@+/, '');
  if (name === '') return null;
  return prefix + encodeURIComponent(name);
}
