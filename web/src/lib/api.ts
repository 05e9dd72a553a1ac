import { config } from './config.ts';
import { takeEarlyRequest } from './early-requests.ts';
import { storage } from './storage.ts';

/** An error answer of the BFF: `{ code, message }` plus the HTTP status. */
export class ApiError extends Error {
  readonly status: number;
  readonly code: string;
  readonly body: Record<string, unknown>;

  constructor(status: number, code: string, message: string, body: Record<string, unknown>) {
    super(message);
    this.name = 'ApiError';
    this.status = status;
    this.code = code;
    this.body = body;
  }
}

/** `message`: why, when the server said (a suspension or ban names level, reason and end). */
type UnauthorizedListener = (message?: string) => void;
const unauthorizedListeners = new Set<UnauthorizedListener>();

/**
 * Spec §4: any 401 (other than a guest refusal) drops the token, and so does a 403 for a member
 * suspended or banned since it logged in (issue 12); the auth state listens here.
 */
export function onUnauthorized(listener: UnauthorizedListener): () => void {
  unauthorizedListeners.add(listener);
  return () => unauthorizedListeners.delete(listener);
}

const noticeListeners = new Set<UnauthorizedListener>();
/** A session end nobody has told the member about yet: it came before a notice was listening. */
let untold: { message: string | undefined } | null = null;

/**
 * Telling the member why the session ended (layout/SessionEnded.tsx). The page's first read can
 * be refused before the app has mounted its notice — the read may have been started ahead of the
 * app's code (early-requests.ts) — so an end that no notice heard is told to the next one.
 */
export function onSessionEnded(tell: UnauthorizedListener): () => void {
  noticeListeners.add(tell);
  if (untold) {
    const { message } = untold;
    untold = null;
    tell(message);
  }
  return () => noticeListeners.delete(tell);
}

export const networkErrorMessage = '서버에 연결할 수 없습니다. 잠시 후 다시 시도해 주세요.';
/** Issue 40: what the member's other tabs and devices say when the password was changed elsewhere. */
export const passwordChangedMessage = '비밀번호가 변경되어 로그아웃되었습니다. 새 비밀번호로 다시 로그인해 주세요.';

/** Whether this page has read something as a signed-in member (and not been signed out since). */
let signedInHere = false;

/**
 * Another tab of this browser changed the password (a `storage` event, layout/SessionEnded.tsx):
 * a page that was signed in signs out with the reason; a guest's or signed-out page hears nothing.
 */
export function passwordChangedInAnotherTab(): void {
  if (signedInHere) endSessionBecause(passwordChangedMessage);
}

/** When this page itself last changed the password: its own live stream's `ended` is then no news. */
let ownPasswordChangeAt = 0;
export function markOwnPasswordChange(): void {
  ownPasswordChangeAt = Date.now();
}
export const changedPasswordHere = (): boolean => Date.now() - ownPasswordChangeAt < 60_000;

/**
 * Ends the session on this page and tells the member why (`message`; the generic notice when
 * none): the stored token is dropped, the auth state turns unauthorized.
 */
export function endSessionBecause(message?: string): void {
  signedInHere = false;
  storage.setToken(null);
  storage.setAuthMode('unauthorized');
  for (const listener of unauthorizedListeners) listener(message);
  if (noticeListeners.size === 0) untold = { message };
  for (const tell of noticeListeners) tell(message);
}

let refreshing: Promise<string | null> | null = null;

/**
 * The next access token from the BFF's refresh cookie (httpOnly: this code never sees the refresh
 * token), or null when the session has ended. Concurrent expired requests share one refresh: the
 * refresh token is single-use, so a second one would end the session.
 */
function refreshAccessToken(): Promise<string | null> {
  refreshing ??= (async () => {
    try {
      const response = await fetch(`${config.apiBase}/auth/refresh`, { method: 'POST', headers: { accept: 'application/json' }, credentials: 'same-origin' });
      if (!response.ok) return null;
      const body = (await response.json()) as { accessToken?: unknown };
      return typeof body.accessToken === 'string' ? body.accessToken : null;
    } catch {
      return null;
    }
  })().finally(() => {
    refreshing = null;
  });
  return refreshing;
}

/** Log-out on this device: the BFF revokes the refresh token and clears its cookie. Best effort. */
export function endSession(): void {
  void fetch(`${config.apiBase}/auth/logout`, { method: 'POST', credentials: 'same-origin' }).catch(() => undefined);
}

export async function api<T>(path: string, init: { method?: string; body?: unknown; signal?: AbortSignal; headers?: Record<string, string> } = {}, retried = false): Promise<T> {
  const headers: Record<string, string> = { ...init.headers, accept: 'application/json' };
  const token = storage.token();
  if (token) headers.authorization = `Bearer ${token}`;
  if (init.body !== undefined) headers['content-type'] = 'application/json';
  // A read the page started before this code arrived (early-requests.ts) is taken as this one.
  const early = (init.method ?? 'GET') === 'GET' && !retried ? takeEarlyRequest(path, token) : undefined;
  let response: Response;
  try {
    response = await (early ??
      fetch(`${config.apiBase}${path}`, {
        method: init.method ?? 'GET',
        headers,
        body: init.body === undefined ? null : JSON.stringify(init.body),
        signal: init.signal ?? null,
      }));
  } catch (error) {
    if (error instanceof DOMException && error.name === 'AbortError') throw error;
    throw new ApiError(0, 'NETWORK_ERROR', networkErrorMessage, {});
  }
  const text = await response.text();
  let body: unknown = null;
  if (text) {
    try {
      body = JSON.parse(text);
    } catch {
      body = null;
    }
  }
  if (!response.ok) {
    const record = body !== null && typeof body === 'object' ? (body as Record<string, unknown>) : {};
    const code = typeof record.code === 'string' ? record.code : `HTTP_${response.status}`;
    const message = typeof record.message === 'string' ? record.message : '';
    // Access tokens last minutes: an expired one is renewed once and the request repeated (the
    // BFF refused it before doing anything, so repeating a POST is safe).
    if (response.status === 401 && code === 'TOKEN_INVALID' && token && !retried) {
      const renewed = await refreshAccessToken();
      if (renewed !== null) {
        storage.setToken(renewed);
        return api<T>(path, init, true);
      }
    }
    const restricted = response.status === 403 && (code === 'MEMBER_SUSPENDED' || code === 'MEMBER_BANNED');
    // Several reads refused together (a suspended member's page) tell the member once (issue 40).
    // The first refused answer for this token ends the session; the others (a suspended member's
    // page refused several reads at once) find it ended and tell nothing more (issue 40).
    if (((response.status === 401 && code !== 'GUEST_NOT_ALLOWED') || restricted) && token && storage.token() === token) {
      endSessionBecause(restricted && message ? message : undefined);
    }
    throw new ApiError(response.status, code, message, record);
  }
  if (token) signedInHere = true;
  return body as T;
}

export const post = <T>(path: string, body?: unknown, headers?: Record<string, string>) => api<T>(path, { method: 'POST', body: body ?? {}, ...(headers ? { headers } : {}) });

/** The server's Korean message when it sent one, else the given fallback. */
export function messageOf(error: unknown, fallback: string): string {
  if (error instanceof ApiError && error.message) return error.message;
  return fallback;
}
