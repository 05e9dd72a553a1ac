import { describe, expect, it } from 'vitest';
import { orderBody, topUpBody } from './money-schemas.ts';

describe('orderBody', () => {
  it('turns decimal strings into numbers and leaves anything else for the order service to refuse', () => {
    expect(orderBody.parse({ serviceId: '16', amount: ' 10 ' })).toMatchObject({ serviceId: 16, amount: 10 });
    expect(orderBody.parse({ serviceId: '0x10', amount: '1e3' })).toMatchObject({ serviceId: '0x10', amount: '1e3' });
  });

  it('keeps an empty or blank auto field (a present but wrong value), and drops only absent or null ones', () => {
    expect(orderBody.parse({ runs: '', interval: ' ' })).toMatchObject({ runs: '', interval: '' });
    expect(orderBody.parse({ runs: null })).toEqual({ runs: undefined, serviceId: undefined, amount: undefined, interval: undefined, link: undefined });
  });
});

describe('free text at the edge', () => {
  it('refuses links that are neither http(s) nor a profile name, with a Korean message', () => {
    for (const link of ['javascript:alert(1)', 'https://a\u0000b.com', 'name\r\nX-Injected: 1', 'a\u202Eb']) {
      const parsed = orderBody.safeParse({ link });
      expect(parsed.success, JSON.stringify(link)).toBe(false);
      expect(parsed.error?.issues[0]?.message).toMatch(/[가-힣]/);
    }
    expect(orderBody.safeParse({ link: 'https://instagram.com/p/1' }).success).toBe(true);
    expect(orderBody.safeParse({ link: '홍길동_official' }).success).toBe(true);
  });

  it('refuses depositor names with line breaks, NUL or bidi overrides', () => {
    for (const name of ['홍길동\r\n', 'a\u0000', '\u202E동길홍']) expect(topUpBody.safeParse({ name }).success, JSON.stringify(name)).toBe(false);
    expect(topUpBody.safeParse({ name: '홍길동' }).success).toBe(true);
  });
});
