import type { Request, Response } from 'express';
import { type AuthSessionBody, type BrowserSessionBody, authSession } from '@smm/contracts/http';

/**
 * The refresh token lives only in this cookie: httpOnly (page scripts, and so an injected script,
 * cannot read it), SameSite=Strict (no other site's page can make the browser send it), scoped to
 * the auth paths, Secure when the request came over TLS. The short access token is what the web
 * app holds.
 */
export const refreshCookieName = 'smm_refresh';
const path = '/api/auth';

export function setRefreshCookie(req: Request, res: Response, token: string, maxAgeSeconds: number): void {
  res.cookie(refreshCookieName, token, { httpOnly: true, sameSite: 'strict', secure: req.secure, path, maxAge: maxAgeSeconds * 1000 });
}

export function clearRefreshCookie(req: Request, res: Response): void {
  res.clearCookie(refreshCookieName, { httpOnly: true, sameSite: 'strict', secure: req.secure, path });
}

/** The cookie's value, or null. Parsed here: one cookie does not need a parser middleware. */
export function refreshCookieOf(req: Request): string | null {
  for (const part of (req.get('cookie') ?? '').split(';')) {
    const at = part.indexOf('=');
    if (at > 0 && part.slice(0, at).trim() === refreshCookieName) {
      const value = part.slice(at + 1).trim();
      return /^[A-Za-z0-9_-]{20,100}$/.test(value) ? value : null;
    }
  }
  return null;
}

type SessionBody = AuthSessionBody;

/** Auth's answer is a new session (`authSession` of the contracts), not an error or a continuation. */
export function isSession(body: unknown): body is SessionBody {
  return authSession.safeParse(body).success;
}

/** Moves a new session's refresh token into the cookie and answers the rest. */
export function answerSession(req: Request, res: Response, status: number, body: SessionBody): void {
  const { refreshToken, refreshExpiresIn, ...rest } = body;
  setRefreshCookie(req, res, refreshToken, refreshExpiresIn);
  res.status(status).json(rest satisfies BrowserSessionBody);
}
