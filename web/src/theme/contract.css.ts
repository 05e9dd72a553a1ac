import { createGlobalTheme, createThemeContract } from '@vanilla-extract/css';

/**
 * One contract, two themes (light, dark). `primary` and `notice` are overridden at run time with
 * the MAIN_COLOR and NOTICE_BOLD_COLOR settings; soft tints derive from them with color-mix so a
 * new main colour recolours the whole app.
 */
export const vars = createThemeContract({
  color: {
    bg: null,
    surface: null,
    surfaceAlt: null,
    text: null,
    textMuted: null,
    border: null,
    borderStrong: null,
    primary: null,
    primaryText: null,
    primarySoft: null,
    /** The main colour as text on soft or dark backgrounds (lightened in the dark theme). */
    primaryInk: null,
    notice: null,
    noticeSoft: null,
    danger: null,
    dangerSoft: null,
    success: null,
    successSoft: null,
    warning: null,
    warningSoft: null,
    focus: null,
    overlay: null,
    info: null,
  },
  shadow: { card: null, pop: null },
});

export const tokens = {
  // Fonts the devices have, Korean first: Apple's, Windows', then Noto Sans CJK KR (Android, Linux).
  // Each family named before the one a device has costs the browser a font lookup per text style
  // on the first layout (on Linux Chromium a synchronous call to its browser process): web-font
  // names nobody has installed (Pretendard, Noto Sans KR) made the first layout of a page look up
  // 89 fonts instead of 48 (trace category `fonts`, FontCache::GetFontPlatformData, /account).
  font: '"Apple SD Gothic Neo", "Malgun Gothic", "Noto Sans CJK KR", system-ui, sans-serif',
  mono: 'ui-monospace, SFMono-Regular, Menlo, Consolas, monospace',
  radius: { sm: '8px', md: '12px', lg: '16px', pill: '999px' },
  space: { xs: '4px', sm: '8px', md: '12px', lg: '16px', xl: '24px', xxl: '32px' },
};

const soft = (color: string, pct: number, base: string) => `color-mix(in srgb, ${color} ${pct}%, ${base})`;

/**
 * The highlighted notice: text on a soft tint of its colour over the surface. The defaults below
 * reach 4.5:1 (WCAG AA); a NOTICE_BOLD_COLOR setting is shaded at run time to keep that ratio
 * (theme.tsx, contrast.ts), so both the text and its background are fixed colours, not a color-mix.
 */
export const noticeTheme = {
  light: { surface: '#FFFFFF', tint: 0.08, ink: '#BE123C', soft: '#FDEDF0' },
  dark: { surface: '#171A23', tint: 0.16, ink: '#FB7185', soft: '#3B2833' },
} as const;
/** The landscape banner's blue, white text on it at 6.7:1 in both themes. */
const infoBlue = '#1D4ED8';

createGlobalTheme(':root', vars, {
  color: {
    bg: '#F5F6FA',
    surface: noticeTheme.light.surface,
    surfaceAlt: '#F0F2F7',
    text: '#1A1D26',
    textMuted: '#5F6677',
    border: '#E3E6ED',
    borderStrong: '#C9CEDA',
    primary: '#4F46E5',
    primaryText: '#FFFFFF',
    primarySoft: soft(vars.color.primary, 10, '#FFFFFF'),
    primaryInk: vars.color.primary,
    notice: noticeTheme.light.ink,
    noticeSoft: noticeTheme.light.soft,
    danger: '#C4261B', // 5.2:1 on dangerSoft (the cancel buttons); #D92D20 was 4.35:1
    dangerSoft: '#FEF0EF',
    success: '#0F7553', // 5.1:1 on successSoft (status badges); #12805C was 4.41:1
    successSoft: '#E7F6EF',
    warning: '#B54708',
    warningSoft: '#FEF4E6',
    focus: vars.color.primary,
    overlay: 'rgba(15, 18, 28, 0.55)',
    info: infoBlue,
  },
  shadow: {
    card: '0 1px 2px rgba(16, 24, 40, 0.04), 0 2px 8px rgba(16, 24, 40, 0.05)',
    pop: '0 12px 32px rgba(16, 24, 40, 0.18)',
  },
});

createGlobalTheme(':root.theme-dark', vars, {
  color: {
    bg: '#0F1117',
    surface: noticeTheme.dark.surface,
    surfaceAlt: '#1F2330',
    text: '#EDEFF5',
    textMuted: '#A0A7B8',
    border: '#2A2F3D',
    borderStrong: '#3A4152',
    primary: '#6D67F0',
    primaryText: '#FFFFFF',
    primarySoft: soft(vars.color.primary, 22, '#171A23'),
    primaryInk: soft(vars.color.primary, 45, '#FFFFFF'),
    notice: noticeTheme.dark.ink,
    noticeSoft: noticeTheme.dark.soft,
    danger: '#F97066',
    dangerSoft: '#3A1D1D',
    success: '#47CD89',
    successSoft: '#143226',
    warning: '#FDB022',
    warningSoft: '#3A2C12',
    focus: vars.color.primary,
    overlay: 'rgba(0, 0, 0, 0.65)',
    info: infoBlue,
  },
  shadow: {
    card: '0 1px 2px rgba(0, 0, 0, 0.3), 0 4px 12px rgba(0, 0, 0, 0.25)',
    pop: '0 16px 40px rgba(0, 0, 0, 0.5)',
  },
});
