import { describe, expect, it } from 'vitest';
import { hasUnsafeChars, isAcceptableLink } from '../src/index.ts';

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
});
