import { describe, expect, it } from 'vitest';
import { passwordLengthOk } from '../src/password.ts';

describe('password length (spec §5: 8–20 characters)', () => {
  it('accepts 8 and 20 characters and refuses 7 and 21', () => {
    expect(passwordLengthOk('a'.repeat(7))).toBe(false);
    expect(passwordLengthOk('a'.repeat(8))).toBe(true);
    expect(passwordLengthOk('a'.repeat(20))).toBe(true);
    expect(passwordLengthOk('a'.repeat(21))).toBe(false);
  });

  it('counts characters, not UTF-16 units: 20 emoji are 20 characters', () => {
    expect(passwordLengthOk('😀'.repeat(20))).toBe(true);
    expect(passwordLengthOk('😀'.repeat(4))).toBe(false);
  });
});
