import { describe, expect, it } from 'vitest';
import { areaOfPath, staffMayCall } from './operator-areas.ts';

describe('operator areas (issue 41)', () => {
  it('maps console routes to their area', () => {
    expect(areaOfPath('/admin/top-ups/12/approve')).toBe('top-ups');
    expect(areaOfPath('/admin/top-ups.csv')).toBe('top-ups');
    expect(areaOfPath('/admin/members/abc/restriction')).toBe('members');
    expect(areaOfPath('/admin/fulfillment/forwards/3/review')).toBe('review');
    expect(areaOfPath('/admin/dashboard')).toBe('any');
    expect(areaOfPath('/admin/top-upsx')).toBeNull();
    expect(areaOfPath('/admin/whatever')).toBeNull();
  });

  it('lets staff call only their areas and the open routes', () => {
    expect(staffMayCall('/admin/orders/search', ['orders'])).toBe(true);
    expect(staffMayCall('/admin/top-ups', ['orders'])).toBe(false);
    expect(staffMayCall('/admin/dashboard', [])).toBe(true);
    expect(staffMayCall('/admin/unlisted', ['orders', 'top-ups', 'deposits', 'members', 'review'])).toBe(false);
  });
});
