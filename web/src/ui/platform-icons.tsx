import type { ReactNode } from 'react';

/**
 * One inline icon per fixed platform id (spec §3; ids from services/catalog domain/platform-icons):
 * 1 instagram, 2 youtube, 3 tiktok, 4 facebook, 5 naver-blog, 6 twitter, 7 threads, 8 kakaostory,
 * 9 naver-place, 10 kakao-channel, 11 telegram, 12 twitch, 13 soop, 14 etc. Drawn in currentColor
 * so they sit on the platform's background colour.
 */
const paths: Record<number, ReactNode> = {
  1: (
    <>
      <rect x="3" y="3" width="18" height="18" rx="5" fill="none" stroke="currentColor" strokeWidth="2" />
      <circle cx="12" cy="12" r="4.2" fill="none" stroke="currentColor" strokeWidth="2" />
      <circle cx="17.4" cy="6.6" r="1.3" fill="currentColor" />
    </>
  ),
  2: (
    <>
      <rect x="2" y="5" width="20" height="14" rx="4.5" fill="currentColor" />
      <path d="M10 9v6l5.2-3z" fill="var(--icon-bg, #FF0000)" />
    </>
  ),
  3: <path d="M14 3h3c.3 2.2 1.7 3.7 4 4v3.1c-1.5 0-2.9-.4-4-1.1v6.3A5.7 5.7 0 1 1 11.3 9.6v3.2a2.6 2.6 0 1 0 2.7 2.6z" fill="currentColor" />,
  4: <path d="M13.5 21v-7.5h2.6l.4-3h-3V8.6c0-.9.3-1.5 1.5-1.5h1.6V4.4c-.3 0-1.2-.1-2.3-.1-2.3 0-3.8 1.4-3.8 3.9v2.3H8v3h2.5V21z" fill="currentColor" />,
  5: (
    <>
      <rect x="3" y="4" width="18" height="14" rx="3" fill="none" stroke="currentColor" strokeWidth="2" />
      <path d="M8 8v6M8 8l4 6V8M16 8h-1.5a1.5 1.5 0 0 0 0 3h1a1.5 1.5 0 0 1 0 3H14" fill="none" stroke="currentColor" strokeWidth="1.6" strokeLinecap="round" />
      <path d="M10 18l2 2.5 2-2.5" fill="currentColor" />
    </>
  ),
  6: <path d="M4 4h4.6l4 5.6L17.3 4H20l-6.1 7.3L20.5 20h-4.6l-4.3-5.9L6.5 20H3.8l6.5-7.7z" fill="currentColor" />,
  7: (
    <path
      d="M16.3 11.2c-.1-.1-.3-.1-.4-.2-.2-4-2.4-6.2-6-6.3-2.2 0-4 .9-5.1 2.6l2 1.4c.8-1.3 2.1-1.5 3.1-1.5 1.2 0 2.1.4 2.7 1.1.4.5.7 1.2.8 2-1-.2-2.1-.2-3.3-.2-3.3.2-5.4 2.1-5.3 4.8.1 1.4.8 2.6 1.9 3.3 1 .6 2.2.9 3.5.8 1.7-.1 3-.7 3.9-1.9.7-.9 1.1-2 1.3-3.4.8.5 1.4 1.1 1.7 1.9.5 1.3.6 3.4-1.2 5.1-1.5 1.5-3.4 2.2-6.2 2.2-3.1 0-5.4-1-7-3-1.5-1.8-2.2-4.5-2.3-7.9.1-3.4.8-6.1 2.3-7.9 1.6-2 3.9-3 7-3 3.1 0 5.5 1 7.1 3 .8 1 1.4 2.2 1.8 3.6l2.3-.6c-.5-1.8-1.3-3.3-2.3-4.6-2.1-2.6-5.2-3.9-9-3.9-3.8 0-6.8 1.3-8.9 3.9C1.8 5.6.9 8.8.8 12.5v.1c.1 3.8 1 7 2.9 9.3 2.1 2.6 5.1 3.9 8.9 3.9 3.4 0 5.8-.9 7.8-2.8 2.6-2.6 2.5-5.8 1.7-7.8-.6-1.4-1.8-2.6-3.4-3.4zm-5.9 5.6c-1.4.1-2.9-.6-3-1.9-.1-1 .7-2.1 3-2.2h.8c.8 0 1.6.1 2.3.2-.3 3.3-1.8 3.8-3.1 3.9z"
      fill="currentColor"
      transform="translate(1.2 -1) scale(0.92)"
    />
  ),
  8: (
    <>
      <path d="M12 3c5 0 9 3.2 9 7.2s-4 7.2-9 7.2c-.8 0-1.6-.1-2.3-.2L5 20l1-4.1C4.2 14.6 3 12.5 3 10.2 3 6.2 7 3 12 3z" fill="currentColor" />
      <path d="M10 7.5v5.5M10 10.3l3-2.8M10.8 10l2.4 3" stroke="var(--icon-bg, #FFCD00)" strokeWidth="1.6" strokeLinecap="round" fill="none" />
    </>
  ),
  9: (
    <>
      <path d="M12 2.5c-4 0-7 3-7 6.9 0 5 7 12.1 7 12.1s7-7.1 7-12.1c0-3.9-3-6.9-7-6.9z" fill="currentColor" />
      <path d="M9.6 6.6v5.6M9.6 6.6l4.8 5.6V6.6" stroke="var(--icon-bg, #03C75A)" strokeWidth="1.7" fill="none" strokeLinecap="round" strokeLinejoin="round" />
    </>
  ),
  10: (
    <>
      <path d="M12 3.5c5 0 9 3.1 9 7s-4 7-9 7c-.9 0-1.7-.1-2.5-.3L5.3 20l1.2-3.9C4.3 14.8 3 12.8 3 10.5c0-3.9 4-7 9-7z" fill="currentColor" />
      <text x="12" y="13.4" textAnchor="middle" fontSize="6.5" fontWeight="800" fill="var(--icon-bg, #FEE500)" fontFamily="sans-serif">
        TALK
      </text>
    </>
  ),
  11: <path d="M21 4.3L2.9 11.2c-1.2.5-1.2 1.2 0 1.5l4.6 1.4 1.8 5.5c.2.6.4.8.9.8.4 0 .6-.2.9-.4l2.2-2.1 4.6 3.4c.8.5 1.5.2 1.7-.8l3-14.3c.3-1.3-.5-1.9-1.6-1.4zM9.1 13.9l9.7-6.1c.5-.3.9-.1.5.2l-8.3 7.5-.3 3.5z" fill="currentColor" />,
  12: (
    <>
      <path d="M5 3L3.5 7v12.5h4.2V22h2.4l2.3-2.5h3.5L21 15V3zm14 11.1l-2.8 2.8h-4.5l-2.4 2.4v-2.4H5.6V5h13.4z" fill="currentColor" />
      <path d="M11.2 8.2h1.9v5h-1.9zM15.8 8.2h1.9v5h-1.9z" fill="currentColor" />
    </>
  ),
  13: (
    <>
      <circle cx="12" cy="12" r="9" fill="none" stroke="currentColor" strokeWidth="2" />
      <path d="M10 8.2v7.6l6.2-3.8z" fill="currentColor" />
    </>
  ),
  14: (
    <>
      <circle cx="6" cy="12" r="2" fill="currentColor" />
      <circle cx="12" cy="12" r="2" fill="currentColor" />
      <circle cx="18" cy="12" r="2" fill="currentColor" />
    </>
  ),
};

/** Icons drawn dark on light brand colours (Kakao yellow). */
const darkGlyph = new Set([8, 10]);

export function PlatformIcon({ id, background, size = 28 }: { id: number; background: string; size?: number }) {
  const light = darkGlyph.has(id) || isLight(background);
  return (
    <svg
      width={size}
      height={size}
      viewBox="0 0 24 24"
      aria-hidden="true"
      focusable="false"
      style={{ color: light ? '#1A1600' : '#FFFFFF', ['--icon-bg' as string]: background }}
    >
      {paths[id] ?? paths[14]}
    </svg>
  );
}

/** Whether a #rrggbb colour is light enough to need a dark glyph. */
export function isLight(hex: string): boolean {
  const match = /^#?([0-9a-f]{6})$/i.exec(hex.trim());
  if (!match?.[1]) return false;
  const n = parseInt(match[1], 16);
  const [r, g, b] = [(n >> 16) & 255, (n >> 8) & 255, n & 255];
  return 0.299 * r + 0.587 * g + 0.114 * b > 170;
}
