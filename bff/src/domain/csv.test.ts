import { describe, expect, it } from 'vitest';
import { csvCell, toCsv } from './csv.ts';

describe('csvCell', () => {
  it.each([
    ['=HYPERLINK("http://x")', `"'=HYPERLINK(""http://x"")"`],
    ['+82 10', `'+82 10`],
    ['-1+1', `'-1+1`],
    ['@SUM(A1)', `'@SUM(A1)`],
    ['\t=1', `'\t=1`],
    ['\r=1', `"'\r=1"`],
  ])('neutralises a formula start in %j', (input, expected) => {
    expect(csvCell(input)).toBe(expected);
  });

  it('quotes commas, quotes and line breaks, and keeps plain Korean text as it is', () => {
    expect(csvCell('홍길동')).toBe('홍길동');
    expect(csvCell('a,b')).toBe('"a,b"');
    expect(csvCell('say "hi"')).toBe('"say ""hi"""');
    expect(csvCell('two\nlines')).toBe('"two\nlines"');
  });

  it('writes numbers as numbers (also negative ones the export computes) and null as empty', () => {
    expect(csvCell(55000)).toBe('55000');
    expect(csvCell(-100.5)).toBe('-100.5');
    expect(csvCell(null)).toBe('');
  });
});

describe('toCsv', () => {
  it('starts with a byte-order mark and ends every line with CRLF', () => {
    expect(toCsv(['번호', '입금자명'], [[1, '=cmd']])).toBe("\uFEFF번호,입금자명\r\n1,'=cmd\r\n");
  });
});
