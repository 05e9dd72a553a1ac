// @vitest-environment happy-dom
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { ApiError, api, onSessionEnded, onUnauthorized } from '../src/lib/api.ts';
import { storage } from '../src/lib/storage.ts';

function answer(status: number, body: unknown) {
  return vi.fn(async () => new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } }));
}

describe('API client (spec §4, §7: token header, any 401 drops the token)', () => {
  beforeEach(() => localStorage.clear());
  afterEach(() => vi.unstubAllGlobals());

  it('sends the stored token as a bearer token', async () => {
    storage.setToken('tok');
    const fetch = answer(200, { ok: true });
    vi.stubGlobal('fetch', fetch);
    await api('/auth/profile');
    const [url, init] = fetch.mock.calls[0] as unknown as [string, RequestInit];
    expect(url).toBe('/api/auth/profile');
    expect((init.headers as Record<string, string>).authorization).toBe('Bearer tok');
  });

  it('a 401 drops the token, marks the client unauthorized and tells the listeners', async () => {
    storage.setToken('expired');
    const listener = vi.fn();
    const stop = onUnauthorized(listener);
    vi.stubGlobal('fetch', answer(401, { code: 'TOKEN_INVALID', message: '다시 로그인해 주세요.' }));
    const error = await api('/service/order-history').catch((e: unknown) => e);
    stop();
    expect(error).toBeInstanceOf(ApiError);
    expect((error as ApiError).message).toBe('다시 로그인해 주세요.');
    expect(storage.token()).toBeNull();
    expect(storage.authMode()).toBe('unauthorized');
    expect(listener).toHaveBeenCalledOnce();
  });

  it('tells the notice about a session that ended before it was listening, once, with the server\'s reason', async () => {
    // The page's first read is refused before the app has mounted its notice.
    storage.setToken('banned');
    vi.stubGlobal('fetch', answer(403, { code: 'MEMBER_BANNED', message: '이용이 정지된 계정입니다.' }));
    await api('/auth/profile').catch(() => undefined);
    const told = vi.fn();
    const stop = onSessionEnded(told);
    expect(told).toHaveBeenCalledExactlyOnceWith('이용이 정지된 계정입니다.');
    stop();
    const later = vi.fn();
    onSessionEnded(later)();
    expect(later).not.toHaveBeenCalled();
  });

  it('a notice that listens hears the end at once', async () => {
    storage.setToken('expired');
    const told = vi.fn();
    const stop = onSessionEnded(told);
    vi.stubGlobal('fetch', answer(401, { code: 'NOT_AUTHENTICATED', message: '다시 로그인해 주세요.' }));
    await api('/service/order-history').catch(() => undefined);
    stop();
    expect(told).toHaveBeenCalledExactlyOnceWith(undefined);
  });

  it('renews an expired access token once from the refresh cookie and repeats the request', async () => {
    storage.setToken('expired');
    const listener = vi.fn();
    const stop = onUnauthorized(listener);
    const fetch = vi.fn(async (url: string, init?: RequestInit) => {
      if (url === '/api/auth/refresh') return new Response(JSON.stringify({ accessToken: 'fresh', expiresIn: 900 }), { status: 200 });
      const auth = (init?.headers as Record<string, string>).authorization;
      return auth === 'Bearer fresh'
        ? new Response(JSON.stringify({ ok: true }), { status: 200 })
        : new Response(JSON.stringify({ code: 'TOKEN_INVALID', message: '다시 로그인해 주세요.' }), { status: 401 });
    });
    vi.stubGlobal('fetch', fetch);
    const [first, second] = await Promise.all([api('/auth/profile'), api('/service/order-history')]);
    stop();
    expect(first).toEqual({ ok: true });
    expect(second).toEqual({ ok: true });
    expect(storage.token()).toBe('fresh');
    expect(listener).not.toHaveBeenCalled();
    // Both expired requests waited for one refresh: the refresh token is single-use.
    expect(fetch.mock.calls.filter(([url]) => url === '/api/auth/refresh')).toHaveLength(1);
    expect((fetch.mock.calls.find(([url]) => url === '/api/auth/refresh')![1] as RequestInit).credentials).toBe('same-origin');
  });

  it('a guest refusal (401 GUEST_NOT_ALLOWED) keeps the client as it is', async () => {
    storage.setAuthMode('guest');
    vi.stubGlobal('fetch', answer(401, { code: 'GUEST_NOT_ALLOWED', message: '둘러보기 모드' }));
    await expect(api('/auth/api-key', { method: 'POST', body: {} })).rejects.toMatchObject({ status: 401, code: 'GUEST_NOT_ALLOWED' });
    expect(storage.authMode()).toBe('guest');
  });

  it('keeps the status and body of other errors (the 404 of a social login carries a token)', async () => {
    vi.stubGlobal('fetch', answer(404, { code: 'SOCIAL_ACCOUNT_NOT_REGISTERED', message: '가입 필요', accessToken: 'cont' }));
    const error = (await api('/auth/login/naver', { method: 'POST', body: { code: 'x' } }).catch((e: unknown) => e)) as ApiError;
    expect(error.status).toBe(404);
    expect(error.body.accessToken).toBe('cont');
  });

  it('turns a network failure into a Korean message', async () => {
    vi.stubGlobal('fetch', vi.fn(async () => Promise.reject(new TypeError('fetch failed'))));
    await expect(api('/service/settings')).rejects.toMatchObject({ status: 0, code: 'NETWORK_ERROR' });
  });
});
