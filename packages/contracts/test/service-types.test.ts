import { describe, expect, it } from 'vitest';
import { chargedUnits, expiryEnd, linesOf, normalizeUsername, serviceTypeFromApiName, subscriptionStateFromApiName, usernameItems } from '../src/service-types.ts';

describe('service types (issue 40)', () => {
  it('reads providers’ type names as ours; types this product cannot sell are null', () => {
    expect(serviceTypeFromApiName('Default')).toBe('default');
    expect(serviceTypeFromApiName(undefined)).toBe('default');
    expect(serviceTypeFromApiName('custom comments')).toBe('custom-comments');
    expect(serviceTypeFromApiName(' Package ')).toBe('package');
    expect(serviceTypeFromApiName('Mentions Custom List')).toBe('mentions-custom-list');
    expect(serviceTypeFromApiName('Comment Likes')).toBe('comment-likes');
    expect(serviceTypeFromApiName('Subscriptions')).toBe('subscriptions');
    for (const other of ['Poll', 'SEO', 'Mentions with Hashtags', 'Custom Comments Package']) expect(serviceTypeFromApiName(other), other).toBeNull();
  });
  it('charges a package once and everything else per unit', () => {
    expect(chargedUnits('package', 1000)).toBe(1);
    expect(chargedUnits('custom-comments', 7)).toBe(7);
  });
  it('splits lines and usernames the way members and API clients write them', () => {
    expect(linesOf(' a \r\n\n b\n')).toEqual(['a', 'b']);
    expect(usernameItems('kim, lee\npark\r\n')).toEqual(['kim', 'lee', 'park']);
    expect(normalizeUsername('@kim.a_1')).toBe('kim.a_1');
    expect(normalizeUsername('no way')).toBeNull();
    expect(normalizeUsername('a'.repeat(31))).toBeNull();
  });
  it('reads a subscription’s state words and ends an expiry day at midnight KST', () => {
    expect(['Active', 'paused', 'Completed', 'Expired', 'Cancelled', 'In progress'].map(subscriptionStateFromApiName)).toEqual(['active', 'paused', 'completed', 'expired', 'canceled', 'active']);
    expect(subscriptionStateFromApiName('Exploded')).toBeNull();
    expect(subscriptionStateFromApiName(3)).toBeNull();
    expect(expiryEnd('2026-12-31').toISOString()).toBe('2026-12-31T15:00:00.000Z');
  });
});
