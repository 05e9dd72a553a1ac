import type { AuthProfileBody, OrderViewBody, PlatformViewBody, SessionStateBody } from '@smm/contracts/http';

/**
 * Whole answers of the fake services, as the real ones send them (@smm/contracts/http), with the
 * fields a test cares about given. The BFF checks every answer it reads against those contracts, so
 * a fake that sends half a body would be a service off its contract (a 502), not a shortcut.
 */

export const profileBody = (fields: Partial<AuthProfileBody> & Pick<AuthProfileBody, 'userId' | 'id'>): AuthProfileBody => ({
  email: null,
  phoneNumber: null,
  role: 'member',
  provider: 'local',
  registerWhere: null,
  apiKey: null,
  apiKeyPrefix: null,
  apiKeyIssuedAt: null,
  referralCode: null,
  createdAt: '2026-01-01T00:00:00.000Z',
  restriction: null,
  ...fields,
});

export const orderViewBody = (fields: Partial<OrderViewBody> & Pick<OrderViewBody, 'id'>): OrderViewBody => ({
  kind: 'order',
  userId: 'member-1',
  createdAt: '2026-01-01T00:00:00.000Z',
  serviceId: 1,
  serviceText: '인스타그램 한국인 좋아요',
  link: 'https://www.instagram.com/p/example',
  linkUrl: 'https://www.instagram.com/p/example',
  point: 25,
  pointDeci: 250,
  amount: 10,
  status: 0,
  startCount: null,
  remains: 10,
  autoOrderId: null,
  run: null,
  payment: 'paid',
  refundedDeci: 0,
  source: 'api',
  reason: null,
  serviceType: 'default',
  details: null,
  ...fields,
});

export const platformViewBody = (fields: Pick<PlatformViewBody, 'id' | 'text'> & Partial<PlatformViewBody>): PlatformViewBody => ({ icon: 'etc', visible: true, background: '#ffffff', ...fields });

export const sessionStateBody = (fields: Partial<SessionStateBody> & Pick<SessionStateBody, 'userId'>): SessionStateBody => ({ status: 'active', version: 0, restriction: null, endedSessions: [], ...fields });
