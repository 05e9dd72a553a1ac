import { describe, expect, it } from 'vitest';
import { addFields } from './provider-api.ts';

describe('addFields: the panel standard’s add fields per product type (issue 40)', () => {
  const base = { service: '7', link: 'https://i.com/p/1', quantity: 3, reference: 'fwd-1' };
  it('sends quantity for default products, as before', () => {
    expect(addFields(base)).toEqual({ service: '7', link: 'https://i.com/p/1', quantity: '3' });
  });
  it('sends comments one per line without a quantity, a package with neither, usernames one per line', () => {
    expect(addFields({ ...base, serviceType: 'custom-comments', details: { comments: ['a', 'b', 'c'] } })).toEqual({ service: '7', link: base.link, comments: 'a\nb\nc' });
    expect(addFields({ ...base, serviceType: 'package', quantity: 1000 })).toEqual({ service: '7', link: base.link });
    expect(addFields({ ...base, serviceType: 'mentions-custom-list', details: { usernames: ['kim', 'lee', 'park'] } })).toEqual({ service: '7', link: base.link, usernames: 'kim\nlee\npark' });
  });
  it('sends comment likes with the quantity and the comment author', () => {
    expect(addFields({ ...base, serviceType: 'comment-likes', quantity: 20, details: { username: 'writer' } })).toEqual({ service: '7', link: base.link, quantity: '20', username: 'writer' });
  });
  it('sends a subscription with the standard fields and no link or quantity; an expiry as dd/mm/yyyy, only when there is one', () => {
    const subscription = { username: 'brand.kr', min: 100, max: 200, posts: 3, delay: 5, expiry: '2026-12-31' };
    expect(addFields({ ...base, serviceType: 'subscriptions', quantity: 200, subscription })).toEqual({ service: '7', username: 'brand.kr', min: '100', max: '200', posts: '3', delay: '5', expiry: '31/12/2026' });
    expect(addFields({ ...base, serviceType: 'subscriptions', quantity: 200, subscription: { ...subscription, expiry: null } })).not.toHaveProperty('expiry');
  });
});
