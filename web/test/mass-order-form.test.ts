import { describe, expect, it } from 'vitest';
import { attemptFor, blockReason, checkPaste, massOrderPayload } from '../src/features/mass-order/mass-order-form.ts';
import type { Service } from '../src/lib/types.ts';

const service = (id: number, extra: Partial<Service> = {}): Service => ({
  id, text: `상품 ${id}`, categoryId: 1, platformId: 1, min: 10, max: 1000, point: 2.5, unitPriceDeci: 25, notice: '', enableAuto: false, isReadOnly: false, ...extra,
});
const services = [service(1), service(2, { isReadOnly: true }), service(3, { unitPriceDeci: 3, min: 100, max: 100_000 })];
const texts = { fixFirst: 'fix', tooMany: 'many', shortBy: (deci: number) => `short ${deci}` };

describe('mass order paste (issue 40)', () => {
  it('checks each line in the single order’s order: format, service, read-only, link, quantity, then duplicates', () => {
    const paste = checkPaste(
      [
        '1 | https://x.example/a | 100',
        '',
        '1 | https://x.example/b',
        'abc | https://x.example/c | 10',
        '9 | https://x.example/d | 10',
        '2 | https://x.example/e | 10',
        '1 |  | 10',
        '1 | javascript:alert(1) | 10',
        '1 | https://x.example/f | 10.5',
        '1 | https://x.example/g | 9',
        '1 | https://x.example/h | 1001',
        '1 | https://x.example/a | 20',
        '3\thttps://x.example/a\t1,000',
      ].join('\n'),
      services,
    );
    expect(paste.lines.map((l) => [l.line, l.problem?.code ?? null])).toEqual([
      [1, null],
      [3, 'FORMAT'],
      [4, 'FORMAT'],
      [5, 'UNKNOWN_SERVICE'],
      [6, 'READ_ONLY'],
      [7, 'LINK_REQUIRED'],
      [8, 'LINK_INVALID'],
      [9, 'AMOUNT_NOT_INTEGER'],
      [10, 'BELOW_MIN'],
      [11, 'ABOVE_MAX'],
      [12, 'DUPLICATE'],
      [13, null],
    ]);
    expect(paste.lines[8]!.problem!.message).toBe('최소 주문 수량보다 적습니다. (최소 10)');
    expect(paste.lines[10]!.problem!.message).toBe('1번째 줄과 같은 서비스·링크입니다. 한 줄로 합쳐 주세요.');
    // 100 × 2.5원 + 1,000 × 0.3원, in deci-won.
    expect(paste.totalDeci).toBe(2500 + 3000);
    expect([paste.okCount, paste.badCount]).toEqual([2, 10]);
    expect(blockReason(paste, 1_000_000, texts)).toBe('fix');
  });

  it('blocks more than 100 lines and a total above the balance; sends each line with the price shown', () => {
    const many = checkPaste(Array.from({ length: 101 }, (_, i) => `1 | https://x.example/${i} | 10`).join('\n'), services);
    expect(blockReason(many, Number.MAX_SAFE_INTEGER, texts)).toBe('many');
    const two = checkPaste('1 | https://x.example/a | 100\n3 | https://x.example/b | 100', services);
    expect(blockReason(two, 2799, texts)).toBe('short 1');
    expect(blockReason(two, 2800, texts)).toBeNull();
    expect(massOrderPayload(two)).toEqual({
      lines: [
        { serviceId: 1, link: 'https://x.example/a', amount: 100, unitPriceDeci: 25 },
        { serviceId: 3, link: 'https://x.example/b', amount: 100, unitPriceDeci: 3 },
      ],
    });
  });

  it('keeps one Idempotency-Key for the same paste until an answer settles it', () => {
    let n = 0;
    const key = () => `k${++n}`;
    const first = attemptFor(null, { lines: [1] }, key);
    expect(attemptFor(first, { lines: [1] }, key)).toBe(first);
    expect(attemptFor(first, { lines: [2] }, key).key).toBe('k2');
  });
});
