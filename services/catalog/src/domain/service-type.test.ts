import { describe, expect, it } from 'vitest';
import { checkServiceType } from './service-type.ts';

describe('checkServiceType', () => {
  it('lets default products take auto orders and any range', () => {
    expect(checkServiceType({ type: 'default', min: 10, max: 1000, enableAuto: true })).toBeUndefined();
  });
  it('refuses auto orders on every other type', () => {
    for (const type of ['custom-comments', 'package', 'mentions-custom-list', 'comment-likes'] as const) {
      expect(checkServiceType({ type, min: 5, max: 5, enableAuto: true })?.code).toBe('AUTO_NEEDS_DEFAULT_TYPE');
    }
  });
  it('asks a package for one fixed quantity (min = max)', () => {
    expect(checkServiceType({ type: 'package', min: 100, max: 1000, enableAuto: false })?.code).toBe('PACKAGE_QUANTITY');
    expect(checkServiceType({ type: 'package', min: 1000, max: 1000, enableAuto: false })).toBeUndefined();
  });
});
