import { randomBytes } from 'node:crypto';
import { type IncomingMessage, type ServerResponse, createServer } from 'node:http';
import type { AddressInfo } from 'node:net';

export type FakeNaverUser = { id: string; email?: string; nickname?: string };
export type FakeKakaoUser = { id: number; email?: string; nickname?: string };

/**
 * A local stand-in for Naver's and Kakao's OAuth endpoints (authorize, token, profile), on
 * 127.0.0.1, answering in the providers' documented shapes. The real providers are never called.
 */
export class FakeProviders {
  readonly naverClientId = 'fake-naver-client';
  readonly naverClientSecret = 'fake-naver-secret';
  readonly naverState = 'fake-state-123';
  /** Token requests as Naver received them, to check what auth sent. */
  readonly tokenRequests: URLSearchParams[] = [];
  /** When set, every endpoint answers 500 (a provider outage). */
  failing = false;

  private readonly naverUsers = new Map<string, FakeNaverUser>();
  private readonly codes = new Map<string, string>();
  private readonly naverTokens = new Map<string, string>();
  private readonly kakaoTokens = new Map<string, FakeKakaoUser>();
  private server = createServer((req, res) => this.route(req, res));
  url = '';

  async start(): Promise<this> {
    await new Promise<void>((resolve) => this.server.listen(0, '127.0.0.1', resolve));
    this.url = `http://127.0.0.1:${(this.server.address() as AddressInfo).port}`;
    return this;
  }

  close(): Promise<void> {
    this.server.closeAllConnections();
    return new Promise((resolve) => this.server.close(() => resolve()));
  }

  addNaverUser(user: FakeNaverUser): void {
    this.naverUsers.set(user.id, user);
  }

  /** What the browser popup does: visit authorize, follow the redirect, read `code` from it. */
  async naverCodeFor(userId: string, redirectUri = 'http://127.0.0.1/auth/naver'): Promise<string> {
    const url = new URL('/oauth2.0/authorize', this.url);
    url.search = new URLSearchParams({ response_type: 'code', client_id: this.naverClientId, redirect_uri: redirectUri, state: this.naverState, user: userId }).toString();
    const res = await fetch(url, { redirect: 'manual' });
    const location = res.headers.get('location');
    if (res.status !== 302 || !location) throw new Error(`authorize answered ${res.status}`);
    const code = new URL(location).searchParams.get('code');
    if (!code) throw new Error('no code in redirect');
    return code;
  }

  /** What Kakao's JS SDK hands the browser after sign-in. */
  kakaoTokenFor(user: FakeKakaoUser): string {
    const token = `kakao-${randomBytes(12).toString('hex')}`;
    this.kakaoTokens.set(token, user);
    return token;
  }

  private json(res: ServerResponse, status: number, body: unknown): void {
    res.writeHead(status, { 'content-type': 'application/json;charset=utf-8' });
    res.end(JSON.stringify(body));
  }

  private bearer(req: IncomingMessage): string {
    return (req.headers.authorization ?? '').replace(/^Bearer /, '');
  }

  private route(req: IncomingMessage, res: ServerResponse): void {
    const url = new URL(req.url ?? '/', this.url);
    if (this.failing) return this.json(res, 500, { error: 'server_error' });
    switch (url.pathname) {
      case '/oauth2.0/authorize': {
        const q = url.searchParams;
        const user = q.get('user') ?? '';
        if (q.get('client_id') !== this.naverClientId || !this.naverUsers.has(user)) return this.json(res, 400, { error: 'invalid_request' });
        const code = randomBytes(9).toString('base64url');
        this.codes.set(code, user);
        const target = new URL(q.get('redirect_uri') ?? '');
        target.searchParams.set('code', code);
        target.searchParams.set('state', q.get('state') ?? '');
        res.writeHead(302, { location: target.toString() });
        res.end();
        return;
      }
      case '/oauth2.0/token': {
        const q = url.searchParams;
        this.tokenRequests.push(q);
        const user = this.codes.get(q.get('code') ?? '');
        const credentialsOk = q.get('client_id') === this.naverClientId && q.get('client_secret') === this.naverClientSecret && q.get('state') === this.naverState;
        // Naver answers refusals with 200 and an error field.
        if (q.get('grant_type') !== 'authorization_code' || !credentialsOk || user === undefined) {
          return this.json(res, 200, { error: 'invalid_request', error_description: 'no valid code' });
        }
        this.codes.delete(q.get('code') ?? '');
        const token = `naver-${randomBytes(12).toString('hex')}`;
        this.naverTokens.set(token, user);
        return this.json(res, 200, { access_token: token, refresh_token: 'r', token_type: 'bearer', expires_in: '3600' });
      }
      case '/v1/nid/me': {
        const user = this.naverUsers.get(this.naverTokens.get(this.bearer(req)) ?? '');
        if (!user) return this.json(res, 401, { resultcode: '024', message: 'Authentication failed' });
        return this.json(res, 200, { resultcode: '00', message: 'success', response: user });
      }
      case '/v2/user/me': {
        const user = this.kakaoTokens.get(this.bearer(req));
        if (!user) return this.json(res, 401, { msg: 'this access token does not exist', code: -401 });
        return this.json(res, 200, {
          id: user.id,
          connected_at: new Date().toISOString(),
          kakao_account: { ...(user.email !== undefined && { email: user.email }), profile: { nickname: user.nickname ?? '카카오' } },
        });
      }
      default:
        return this.json(res, 404, { error: 'not_found' });
    }
  }
}
