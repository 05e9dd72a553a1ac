import { describe, expect, it } from 'vitest';
import { freeTextProblem, hasUnsafeChars, isAcceptableLink } from '../src/index.ts';

describe('free text', () => {
  it('finds control characters and bidi overrides, and lets Korean and ordinary punctuation through', () => {
    for (const bad of ['홍길동\r\n', 'a\u0000b', 'abc\u202Etxt.exe', '\u2066x', 'tab\there', '\u0085']) expect(hasUnsafeChars(bad), JSON.stringify(bad)).toBe(true);
    for (const good of ['홍길동', '(주)스마일 - 김대표', "O'Brien", 'Kim Young-hee']) expect(hasUnsafeChars(good), good).toBe(false);
  });

  it('accepts http(s) links and bare profile names only', () => {
    for (const good of ['https://www.instagram.com/p/abc', 'http://blog.naver.com/x?y=1', 'my.profile_01', '@홍길동', 'some-name']) expect(isAcceptableLink(good), good).toBe(true);
    for (const bad of ['javascript:alert(1)', 'data:text/html,x', 'https://a\u0000.com', 'https://exa mple.com', 'ftp://x.com', 'https://', 'name with space', 'a\u202Eb', 'vbscript:x', '']) {
      expect(isAcceptableLink(bad), JSON.stringify(bad)).toBe(false);
    }
  });

  it('judges free text: controls and bidi overrides unsafe (line breaks only where multi-line), text of invisible characters alone refused', () => {
    for (const bad of ['a\u0000b', 'esc\u001b[31m', 'abc\u202Etxt.exe', '\u2067x', 'del\u007f', '\u0085next']) {
      expect(freeTextProblem(bad, false), JSON.stringify(bad)).toBe('unsafe');
      expect(freeTextProblem(bad, true), JSON.stringify(bad)).toBe('unsafe');
    }
    expect(freeTextProblem('첫 줄\n둘째 줄', false)).toBe('unsafe');
    expect(freeTextProblem('첫 줄\r\n둘째 줄\t끝', true)).toBeNull();
    for (const blank of ['\u200B', '\u3164\u3164', ' \u200D ', '\u2800', '\u00AD', '\u115F\u1160']) expect(freeTextProblem(blank, false), JSON.stringify(blank)).toBe('invisible');
    for (const fine of ['홍길동', '홍\u200B길동', '   ', '', '입금자명 확인 부탁드립니다 🙏', '(주)스마일']) expect(freeTextProblem(fine, false), JSON.stringify(fine)).toBeNull();
  });
});
