/**
 * WCAG colour contrast, used to keep a colour chosen in the site settings (NOTICE_BOLD_COLOR)
 * readable: its hue is kept, and it is darkened on a light background or lightened on a dark one
 * until the text reaches the AA ratio for normal text.
 */
export type Rgb = readonly [number, number, number];

export const aaText = 4.5;

/** `#rgb` or `#rrggbb` (an alpha part is ignored); anything else is not understood (null). */
export function parseHex(colour: string): Rgb | null {
  const hex = colour.trim().match(/^#([0-9a-f]{3,8})$/i)?.[1];
  if (!hex || ![3, 4, 6, 8].includes(hex.length)) return null;
  const full = hex.length <= 4 ? [...hex.slice(0, 3)].map((c) => c + c).join('') : hex.slice(0, 6);
  const at = (i: number) => parseInt(full.slice(i, i + 2), 16);
  return [at(0), at(2), at(4)];
}

export function toHex(rgb: Rgb): string {
  return `#${rgb.map((v) => Math.round(Math.min(255, Math.max(0, v))).toString(16).padStart(2, '0')).join('')}`.toUpperCase();
}

function channel(value: number): number {
  const c = value / 255;
  return c <= 0.04045 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4;
}

export function luminance([r, g, b]: Rgb): number {
  return 0.2126 * channel(r) + 0.7152 * channel(g) + 0.0722 * channel(b);
}

export function contrast(a: Rgb, b: Rgb): number {
  const [hi, lo] = [luminance(a), luminance(b)].sort((x, y) => y - x) as [number, number];
  return (hi + 0.05) / (lo + 0.05);
}

/** `share` (0–1) of `a` mixed into `b`, like CSS `color-mix(in srgb, a share, b)`. */
export function mix(a: Rgb, share: number, b: Rgb): Rgb {
  const part = (x: number, y: number) => x * share + y * (1 - share);
  return [part(a[0], b[0]), part(a[1], b[1]), part(a[2], b[2])];
}

const round = ([r, g, b]: Rgb): Rgb => [Math.round(r), Math.round(g), Math.round(b)];
const black: Rgb = [0, 0, 0];
const white: Rgb = [255, 255, 255];

/**
 * The colour itself when it reaches `min` on `background`, else the least darkened (light
 * background) or lightened (dark background) shade of it that does.
 */
export function readableOn(colour: Rgb, background: Rgb, min = aaText): Rgb {
  const toward = luminance(background) > 0.18 ? black : white;
  for (let step = 0; step <= 20; step += 1) {
    const rounded = round(mix(toward, step / 20, colour));
    if (contrast(rounded, background) >= min) return rounded;
  }
  return toward;
}

/**
 * The highlighted-notice pair for a theme: a soft tint of the setting's colour as the background
 * (`tint` share over the theme's surface) and the colour, shaded if needed, as the text.
 */
export function noticeColours(setting: string, surface: string, tint: number): { ink: string; soft: string } | null {
  const colour = parseHex(setting);
  const base = parseHex(surface);
  if (!colour || !base) return null;
  const soft = round(mix(colour, tint, base));
  return { ink: toHex(readableOn(colour, soft)), soft: toHex(soft) };
}
