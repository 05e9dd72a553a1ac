import { existsSync } from 'node:fs';
import { extname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import compression from 'compression';
import express from 'express';
import type { Express, NextFunction, Request, Response } from 'express';
import type { Logger } from 'pino';

/** Where `npm run build -w @smm/web` writes the app. */
export const defaultWebDist = fileURLToPath(new URL('../../web/dist/', import.meta.url));

const year = 365 * 24 * 60 * 60;

/** Shown while web/dist does not exist yet (the app was never built on this checkout). */
const notBuiltPage = `<!doctype html>
<html lang="ko"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>웹 앱이 아직 빌드되지 않았습니다</title>
<style>body{font-family:"Pretendard","Apple SD Gothic Neo","Noto Sans KR",sans-serif;background:#f5f6fa;color:#1a1d26;display:grid;place-items:center;min-height:100vh;margin:0}
main{background:#fff;border:1px solid #e3e6ed;border-radius:16px;padding:32px 36px;max-width:520px;line-height:1.7}
code{background:#f0f2f7;border-radius:6px;padding:2px 8px}</style></head>
<body><main><h1>웹 앱이 아직 빌드되지 않았습니다</h1>
<p>API 서버는 정상적으로 실행 중입니다. 화면을 보려면 저장소 루트에서 아래 명령으로 웹 앱을 빌드한 뒤 이 페이지를 새로 고쳐 주세요.</p>
<p><code>npm run build -w @smm/web</code></p></main></body></html>`;

/** The browser's names of the twins web's build writes next to a hashed asset (`.br`, `.gz`). */
const twins = [
  { encoding: 'br', suffix: '.br' },
  { encoding: 'gzip', suffix: '.gz' },
] as const;

/**
 * Serves a hashed asset's precompressed twin when the browser accepts its encoding (web's build
 * writes them: brotli at quality 11 is 14 % smaller than what on-the-fly compression sends, and costs
 * nothing per request). Asset names carry their content hash, so which twins exist is remembered per
 * name; a build replaced while the BFF runs brings new names. Anything else falls through to the
 * static files and `compression()`.
 */
function precompressedAssets(assets: string) {
  const known = new Map<string, Array<(typeof twins)[number]>>();
  return (req: Request, res: Response, next: NextFunction) => {
    if (req.method !== 'GET' && req.method !== 'HEAD') return next();
    const name = req.path.slice(1);
    // Hashed file names only: no directories, nothing to resolve outside the assets folder.
    if (!/^[\w.-]+$/.test(name) || name.startsWith('.')) return next();
    let available = known.get(name);
    if (!available) {
      if (!existsSync(join(assets, name))) return next();
      available = twins.filter((twin) => existsSync(join(assets, name + twin.suffix)));
      known.set(name, available);
    }
    if (available.length === 0) return next();
    res.vary('Accept-Encoding');
    // The smallest the browser accepts: Chrome lists `gzip, deflate, br, zstd` without weights, so a
    // negotiation by the client's order would never pick brotli.
    const twin = available.find((t) => req.acceptsEncodings(t.encoding) === t.encoding);
    if (!twin) return next();
    res.type(extname(name));
    res.setHeader('Content-Encoding', twin.encoding);
    res.sendFile(join(assets, name + twin.suffix), { maxAge: year * 1000, immutable: true }, (err) => {
      if (!err || res.headersSent) return;
      // The build was replaced under us: forget the name and serve whatever is there now.
      known.delete(name);
      res.removeHeader('Content-Encoding');
      next();
    });
  };
}

/**
 * The page web's build wrote for a route of the app (`pages/<path>.html`, `/` → `pages/index.html`:
 * index.html plus the preloads of that route's screen), if there is one for this path.
 */
function routePage(dist: string, path: string): string | undefined {
  const route = path.length > 1 ? path.replace(/\/+$/, '') : path;
  // Lower-case segments only: nothing to resolve outside the pages folder.
  if (!/^(\/[a-z0-9-]+)*\/?$/.test(route)) return undefined;
  const file = join(dist, 'pages', `${route === '/' ? 'index' : route.slice(1)}.html`);
  return existsSync(file) ? file : undefined;
}

/**
 * Serves the built web app (createApp's `web` option, mounted after /api and the health checks):
 * hashed files under /assets are cached for a year, everything else is revalidated, and any other
 * GET that asks for HTML gets its route's page or index.html, so the client router can take over.
 * Whether the build exists is checked per request, so a build finishing after start-up is picked up
 * without restart.
 */
export function mountWeb(options: { logger: Logger; distDir?: string }): (app: Express) => void {
  const dist = options.distDir ?? defaultWebDist;
  const index = join(dist, 'index.html');
  let warned = false;

  return (app) => {
    if (!existsSync(index)) {
      warned = true;
      options.logger.warn({ dist }, 'web app not built: serving a notice page; run `npm run build -w @smm/web`');
    }
    app.use('/assets', precompressedAssets(join(dist, 'assets')));
    // gzip/brotli for the rest (index.html, an asset without twins): a third of the size on slow phones.
    app.use(compression());
    app.use(
      express.static(dist, {
        index: false,
        setHeaders(res, path) {
          if (path.includes(`${join(dist, 'assets')}`)) res.setHeader('Cache-Control', `public, max-age=${year}, immutable`);
          else res.setHeader('Cache-Control', 'no-cache');
        },
      }),
    );
    app.use((req: Request, res: Response, next: NextFunction) => {
      if (req.method !== 'GET' && req.method !== 'HEAD') return next();
      // `/api` itself is also the web app's API documentation page: a browser asking for HTML gets
      // the app (once createApp lets that one request through); JSON clients keep the API's 404.
      if (req.path === '/api' ? req.accepts(['json', 'html']) !== 'html' : req.path.startsWith('/api/')) return next();
      // A missing hashed asset must stay a 404, not become the HTML page.
      if (req.path.startsWith('/assets/')) return next();
      if (!existsSync(index)) {
        if (!warned) {
          warned = true;
          options.logger.warn({ dist }, 'web app not built: serving a notice page; run `npm run build -w @smm/web`');
        }
        res.status(503).type('html').setHeader('Cache-Control', 'no-store').send(notBuiltPage);
        return;
      }
      res.setHeader('Cache-Control', 'no-cache');
      res.sendFile(routePage(dist, req.path) ?? index);
    });
  };
}
