import { type IncomingMessage, type ServerResponse, createServer } from 'node:http';
import type { AddressInfo } from 'node:net';

export const naverClient = { id: 'e2e-naver-client', secret: 'e2e-naver-secret', state: 'e2e-state' };

/**
 * Naver's and Kakao's OAuth endpoints (authorize, token, profile) in their documented shapes, on
 * 127.0.0.1, for auth to call while the devstack runs. Stateless so tests in other worker
 * processes can use it over HTTP: a Naver code and a Kakao token simply name the provider's user.
 */
export async function startFakeProviders(): Promise<{ url: string; close(): Promise<void> }> {
  const server = createServer((req, res) => route(req, res));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    url,
    close: () => {
      server.closeAllConnections();
      return new Promise((resolve) => server.close(() => resolve()));
    },
  };
}

function json(res: ServerResponse, status: number, body: unknown): void {
  res.writeHead(status, { 'content-type': 'application/json;charset=utf-8' });
  res.end(JSON.stringify(body));
}

function route(req: IncomingMessage, res: ServerResponse): void {
  const url = new URL(req.url ?? '/', 'http://fake');
  const q = url.searchParams;
  const bearer = (req.headers.authorization ?? '').replace(/^Bearer /, '');
  switch (url.pathname) {
    case '/oauth2.0/authorize': {
      const user = q.get('user') ?? '';
      if (q.get('client_id') !== naverClient.id || user === '') return json(res, 400, { error: 'invalid_request' });
      const target = new URL(q.get('redirect_uri') ?? 'http://127.0.0.1/auth/naver');
      target.searchParams.set('code', `code-${Buffer.from(user).toString('base64url')}`);
      target.searchParams.set('state', q.get('state') ?? '');
      res.writeHead(302, { location: target.toString() });
      res.end();
      return;
    }
    case '/oauth2.0/token': {
      const code = q.get('code') ?? '';
      const ok = q.get('client_id') === naverClient.id && q.get('client_secret') === naverClient.secret && q.get('state') === naverClient.state && code.startsWith('code-');
      // Naver answers refusals with 200 and an error field.
      if (q.get('grant_type') !== 'authorization_code' || !ok) return json(res, 200, { error: 'invalid_request', error_description: 'no valid code' });
      return json(res, 200, { access_token: `naver-${code.slice(5)}`, refresh_token: 'r', token_type: 'bearer', expires_in: '3600' });
    }
    case '/v1/nid/me': {
      if (!bearer.startsWith('naver-')) return json(res, 401, { resultcode: '024', message: 'Authentication failed' });
      const user = Buffer.from(bearer.slice(6), 'base64url').toString('utf8');
      return json(res, 200, { resultcode: '00', message: 'success', response: { id: user, email: `${user}@naver.test`, nickname: user } });
    }
    case '/v2/user/me': {
      const id = /^kakao-(\d{1,15})$/.exec(bearer)?.[1];
      if (id === undefined) return json(res, 401, { msg: 'this access token does not exist', code: -401 });
      return json(res, 200, { id: Number(id), connected_at: new Date().toISOString(), kakao_account: { email: `${id}@kakao.test`, profile: { nickname: '카카오' } } });
    }
    default:
      return json(res, 404, { error: 'not_found' });
  }
}
