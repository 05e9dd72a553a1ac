import type { NextFunction, Request, Response } from 'express';
import helmet from 'helmet';
import { settingEnabled, settingKeys } from '@smm/contracts';
import type { SettingsCache } from '../cache/settings-cache.ts';
import { callContext } from '../http/context.ts';

/** The only outside script the web app loads, and only while Kakao login is switched on. */
export const kakaoSdkOrigin = 'https://developers.kakao.com';

/**
 * Whether this response may load the Kakao SDK: asked only for pages (not API calls), from the
 * cached settings; when the settings cannot be read the SDK stays out (the login button then fails
 * in the browser rather than the policy opening up).
 */
function kakaoAllowed(settings: SettingsCache) {
  return async (req: Request, res: Response, next: NextFunction) => {
    res.locals.kakaoSdk = false;
    const page = (req.method === 'GET' || req.method === 'HEAD') && !req.path.startsWith('/api/') && req.accepts(['json', 'html']) === 'html';
    if (page) {
      try {
        const { items } = await settings.get(callContext(req));
        res.locals.kakaoSdk = settingEnabled(items.find((i) => i.key === settingKeys.enableKakaoLogin)?.value);
      } catch (error) {
        req.log.warn({ err: error instanceof Error ? error.message : String(error) }, 'settings unavailable: Kakao SDK left out of the policy');
      }
    }
    next();
  };
}

/**
 * Browser protection from helmet: a strict Content-Security-Policy (scripts from the app's own files
 * only, the Kakao SDK when enabled; no framing, no plugins), nosniff, Referrer-Policy no-referrer, X-Frame-Options DENY,
 * and HSTS only on responses that went out over TLS (a plain-HTTP HSTS header means nothing, and
 * on a development machine it would pin localhost to HTTPS).
 */
export function browserHeaders(settings: SettingsCache) {
  const headers = helmet({
    contentSecurityPolicy: {
      useDefaults: false,
      directives: {
        defaultSrc: ["'self'"],
        scriptSrc: ["'self'", (_req, res) => ((res as Response).locals.kakaoSdk === true ? kakaoSdkOrigin : "'self'")],
        // Styles may be inline: the dialogs' scroll lock (Radix, react-remove-scroll) injects a
        // <style> element at run time. Scripts, where injection does harm, stay strictly 'self'.
        styleSrc: ["'self'", "'unsafe-inline'"],
        imgSrc: ["'self'", 'data:'],
        fontSrc: ["'self'"],
        connectSrc: ["'self'"],
        objectSrc: ["'none'"],
        baseUri: ["'self'"],
        formAction: ["'self'"],
        frameAncestors: ["'none'"],
      },
    },
    strictTransportSecurity: false,
    xFrameOptions: { action: 'deny' },
    referrerPolicy: { policy: 'no-referrer' },
  });
  const hsts = helmet.strictTransportSecurity({ maxAge: 31_536_000, includeSubDomains: true });
  const kakao = kakaoAllowed(settings);
  return [
    kakao,
    headers,
    (req: Request, res: Response, next: NextFunction) => {
      if (req.secure) hsts(req, res, next);
      else next();
    },
  ];
}
