import { describe, expect, it } from 'vitest';
import { aaText, contrast, noticeColours, parseHex, readableOn, toHex } from '../src/theme/contrast.ts';

// contract.css.ts is a vanilla-extract file (it needs the bundler); its notice values are repeated here.
const light = { surface: '#FFFFFF', tint: 0.08, ink: '#BE123C', soft: '#FDEDF0' };
const dark = { surface: '#171A23', tint: 0.16, ink: '#FB7185', soft: '#3B2833' };
const ratio = (a: string, b: string) => contrast(parseHex(a)!, parseHex(b)!);

describe('colour contrast (WCAG)', () => {
  it('measures known pairs', () => {
    expect(ratio('#000000', '#FFFFFF')).toBeCloseTo(21, 5);
    expect(ratio('#FFFFFF', '#5B9BF5')).toBeLessThan(aaText); // the old dark-theme banner (2.8:1)
    expect(ratio('#FFFFFF', '#1D4ED8')).toBeGreaterThanOrEqual(aaText); // the banner's blue now
    expect(ratio('#E11D48', '#FDEDF0')).toBeLessThan(aaText); // the old highlighted notice
  });

  it('danger text (cancel buttons, errors) reaches 4.5:1 on its soft background and on the surface in both themes', () => {
    // contract.css.ts values, repeated: light danger/dangerSoft, dark danger/dangerSoft.
    for (const [ink, soft, surface] of [['#C4261B', '#FEF0EF', '#FFFFFF'], ['#F97066', '#3A1D1D', '#171A23']] as const) {
      expect(ratio(ink, soft)).toBeGreaterThanOrEqual(aaText);
      expect(ratio(ink, surface)).toBeGreaterThanOrEqual(aaText);
    }
    expect(ratio('#D92D20', '#FEF0EF')).toBeLessThan(aaText); // the old light danger (4.35:1, Lighthouse)
    // Success badges likewise (light, dark); #12805C on its soft green was 4.41:1.
    for (const [ink, soft, surface] of [['#0F7553', '#E7F6EF', '#FFFFFF'], ['#47CD89', '#143226', '#171A23']] as const) {
      expect(ratio(ink, soft)).toBeGreaterThanOrEqual(aaText);
      expect(ratio(ink, surface)).toBeGreaterThanOrEqual(aaText);
    }
    expect(ratio('#12805C', '#E7F6EF')).toBeLessThan(aaText);
  });

  it('the default highlighted notice reaches 4.5:1 in both themes, on the tint of its own colour', () => {
    expect(ratio(light.ink, light.soft)).toBeGreaterThanOrEqual(aaText);
    expect(ratio(dark.ink, dark.soft)).toBeGreaterThanOrEqual(aaText);
    expect(noticeColours(dark.ink, dark.surface, dark.tint)).toEqual({ ink: dark.ink, soft: dark.soft });
  });

  it('a NOTICE_BOLD_COLOR setting is shaded just enough to stay readable in either theme', () => {
    for (const theme of [light, dark]) {
      for (const setting of ['#E11D48', '#FFCD00', '#1877F2', '#101010', '#fff', '#03C75A']) {
        const pair = noticeColours(setting, theme.surface, theme.tint)!;
        expect(ratio(pair.ink, pair.soft), `${setting} on ${theme.surface}`).toBeGreaterThanOrEqual(aaText);
      }
    }
    // A colour that is readable already is kept as it is.
    expect(noticeColours('#9F1239', light.surface, light.tint)!.ink).toBe('#9F1239');
    // The seeded #E11D48 keeps its red: darkened, not replaced.
    const [r, g, b] = parseHex(noticeColours('#E11D48', light.surface, light.tint)!.ink)!;
    expect(r).toBeGreaterThan(g + b);
  });

  it('ignores what is not a hex colour', () => {
    expect(noticeColours('red', light.surface, light.tint)).toBeNull();
    expect(noticeColours('', light.surface, light.tint)).toBeNull();
    // White text on white is shaded to the lightest grey readable on it.
    const grey = toHex(readableOn([255, 255, 255], [255, 255, 255]));
    expect(ratio(grey, '#FFFFFF')).toBeGreaterThanOrEqual(aaText);
    expect(ratio(grey, '#FFFFFF')).toBeLessThan(5.5);
  });
});
