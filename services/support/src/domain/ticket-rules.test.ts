import { describe, expect, it } from 'vitest';
import { afterMessage, checkCategory, checkOrderIds, checkText, isProblem, messageWindow } from './ticket-rules.ts';

describe('ticket rules', () => {
  it('trims text, refuses empty, too long, control and invisible text, and keeps markup as plain characters', () => {
    expect(checkText('  안녕하세요  ', 'title')).toEqual({ ok: true, text: '안녕하세요' });
    expect(checkText('   ', 'body')).toMatchObject({ ok: false, problem: { code: 'BODY_REQUIRED', message: '내용을 입력해 주세요.' } });
    expect(checkText(undefined, 'title')).toMatchObject({ ok: false, problem: { code: 'TITLE_REQUIRED' } });
    expect(checkText('가'.repeat(101), 'title')).toMatchObject({ ok: false, problem: { code: 'TITLE_TOO_LONG' } });
    expect(checkText('가'.repeat(2000), 'body')).toMatchObject({ ok: true });
    expect(checkText('가'.repeat(2001), 'body')).toMatchObject({ ok: false, problem: { code: 'BODY_TOO_LONG' } });
    expect(checkText('a\u202Eb', 'body')).toMatchObject({ ok: false, problem: { code: 'TEXT_UNSAFE' } });
    expect(checkText('\u200B\u3164', 'body')).toMatchObject({ ok: false, problem: { code: 'TEXT_INVISIBLE' } });
    expect(checkText('첫 줄\r\n둘째 줄', 'body')).toEqual({ ok: true, text: '첫 줄\n둘째 줄' });
    expect(checkText('줄\n바꿈', 'title')).toMatchObject({ ok: false, problem: { code: 'TEXT_UNSAFE' } });
    expect(checkText('<script>alert(1)</script>', 'body')).toEqual({ ok: true, text: '<script>alert(1)</script>' });
  });

  it('knows the four categories, limits order numbers to five distinct ones', () => {
    expect(checkCategory('payment')).toBe('payment');
    expect(isProblem(checkCategory('refund'))).toBe(true);
    expect(isProblem(checkCategory(undefined))).toBe(true);
    expect(checkOrderIds([3, 1, 3])).toEqual([3, 1]);
    expect(checkOrderIds(undefined)).toEqual([]);
    expect(checkOrderIds([1, 2, 3, 4, 5, 6])).toMatchObject({ code: 'ORDERS_TOO_MANY' });
  });

  it('counts messages in a sliding minute', () => {
    const now = new Date('2026-12-06T08:00:00Z');
    const at = (s: number) => new Date(now.getTime() - s * 1000);
    expect(messageWindow([at(61), at(59), at(1)], now, 3)).toEqual({ kept: [at(59), at(1)], allowed: true });
    expect(messageWindow([at(59), at(30), at(1)], now, 3).allowed).toBe(false);
  });

  it('moves a ticket to open on a member message and answered on an operator one; closed refuses both', () => {
    expect(afterMessage('answered', 'member')).toBe('open');
    expect(afterMessage('open', 'operator')).toBe('answered');
    expect(afterMessage('closed', 'member')).toMatchObject({ code: 'TICKET_CLOSED' });
  });
});
