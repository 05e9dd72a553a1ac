import { vanillaExtractPlugin } from '@vanilla-extract/vite-plugin';
import react from '@vitejs/plugin-react';
import { createHash } from 'node:crypto';
import { mkdirSync, readFileSync, readdirSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { brotliCompressSync, constants, gzipSync } from 'node:zlib';
import type { Plugin, Rollup } from 'vite';
import { byPath, screenModules } from './src/app/routes.ts';
import { startEarlyRequests } from './src/lib/early-requests.ts';
import { storageKeys } from './src/lib/storage.ts';
import { defineConfig } from 'vitest/config';

/**
 * Puts the entry's style sheets (the theme and global CSS, a few KB) into index.html as <style>
 * elements instead of <link>s: a stylesheet link blocks the first paint until it has downloaded,
 * one more round trip on a slow phone (Lighthouse: render-blocking resources). The files stay in
 * the build, so anything that asks for them by name still gets them. The CSP allows inline styles
 * (bff/src/security/browser-headers.ts).
 */
function inlineEntryCss(): Plugin {
  return {
    name: 'smm:inline-entry-css',
    apply: 'build',
    transformIndexHtml: {
      order: 'post',
      handler(html, ctx) {
        const bundle = ctx.bundle;
        if (!bundle) return html;
        return html.replace(/<link rel="stylesheet"[^>]*? href="\/(assets\/[^"]+\.css)">/g, (tag, file: string) => {
          const asset = bundle[file];
          if (asset?.type !== 'asset') return tag;
          const css = typeof asset.source === 'string' ? asset.source : new TextDecoder().decode(asset.source);
          // The disabled link (never fetched) tells vite's preloader that the sheet is in the page
          // already, so a screen's chunk that lists it does not load it a second time.
          return `<style>${css.replaceAll('</style', '<\\/style')}</style>\n    <link rel="stylesheet" href="/${file}" disabled>`;
        });
      },
    },
  };
}

/**
 * Writes a brotli (quality 11) and a gzip (level 9) twin next to every hashed script, style sheet and
 * SVG of the build, which the BFF serves to browsers that accept them (bff/src/web-mount.ts). The
 * BFF's on-the-fly compression uses brotli's fast setting: the entry script (React and the shell,
 * 280 KB) left it at 90 KB, the same as gzip; at quality 11 it is 77 KB, about 65 ms less on the
 * slow-4G phone Lighthouse simulates. Compressing once at build time also spares the server the
 * work on every request.
 */
function precompressAssets(): Plugin {
  let outDir = 'dist';
  return {
    name: 'smm:precompress-assets',
    apply: 'build',
    configResolved(config) {
      outDir = config.build.outDir;
    },
    writeBundle() {
      const assets = join(outDir, 'assets');
      for (const name of readdirSync(assets)) {
        if (!/\.(js|css|svg)$/.test(name)) continue;
        const source = readFileSync(join(assets, name));
        if (source.length < 1024) continue;
        const br = brotliCompressSync(source, { params: { [constants.BROTLI_PARAM_QUALITY]: 11, [constants.BROTLI_PARAM_SIZE_HINT]: source.length } });
        const gz = gzipSync(source, { level: 9 });
        if (br.length < source.length) writeFileSync(join(assets, `${name}.br`), br);
        if (gz.length < source.length) writeFileSync(join(assets, `${name}.gz`), gz);
      }
    },
  };
}

/**
 * Gives every page a small script of its own, loaded ahead of the entry, that starts the reads the
 * app makes first (`startEarlyRequests` in src/lib/early-requests.ts, with routes.ts's first reads
 * per path): the settings, the profile when a token is kept, the opened screen's data. They are
 * under way while the entry (React and the shell, ~77 KB) downloads instead of one round trip after
 * it has run; `api()` takes them. A classic async script with a high fetch priority: it runs as soon
 * as it arrives, and a script file of the app's own needs no change to the strict CSP.
 */
function earlyRequests(): Plugin {
  let fileName = '';
  let source = '';
  return {
    name: 'smm:early-requests',
    apply: 'build',
    configResolved(config) {
      const reads = Object.fromEntries(
        Object.entries(byPath)
          .filter(([, route]) => route.data || route.memberData)
          .map(([path, route]) => [path, { data: route.data, memberData: route.memberData }]),
      );
      const apiBase = (config.env.VITE_API_BASE as string | undefined) ?? '/api';
      source = `(${startEarlyRequests.toString()})(${JSON.stringify(reads)}, ${JSON.stringify(apiBase)}, ${JSON.stringify(storageKeys.token)});\n`;
      fileName = `assets/early-${createHash('sha256').update(source).digest('hex').slice(0, 8)}.js`;
    },
    generateBundle() {
      this.emitFile({ type: 'asset', fileName, source });
    },
    transformIndexHtml: {
      order: 'post',
      handler: (html) => html.replace('<script type="module"', `<script async fetchpriority="high" src="/${fileName}"></script>\n    <script type="module"`),
    },
  };
}

/**
 * Writes a page for every path of the app's routes (`dist/pages/<path>.html`, `/` →
 * `pages/index.html`): index.html plus `<link>`s to the opened screen's chunk, the chunks it
 * imports and its style sheets, so the browser fetches them alongside the entry instead of after
 * it (today's order: the entry, then the screen's chunk once the entry runs, then that chunk's
 * imports and CSS — two round trips in a row on a slow phone before the screen can paint). The
 * BFF serves the page of the path asked for and index.html for any other (bff/src/web-mount.ts).
 * The links are the ones vite's own preloader would add, so it finds them present and adds none.
 */
function routePages(): Plugin {
  let outDir = 'dist';
  return {
    name: 'smm:route-pages',
    apply: 'build',
    configResolved(config) {
      outDir = config.build.outDir;
    },
    writeBundle(_options, bundle) {
      const chunks = Object.values(bundle).filter((file): file is Rollup.OutputChunk => file.type === 'chunk');
      const byFile = new Map(chunks.map((c) => [c.fileName, c]));
      const graph = (start: Rollup.OutputChunk, skip: Set<string>) => {
        const seen = new Set<string>();
        const visit = (name: string) => {
          if (seen.has(name) || skip.has(name)) return;
          seen.add(name);
          for (const next of byFile.get(name)?.imports ?? []) visit(next);
        };
        visit(start.fileName);
        return [...seen];
      };
      const entry = chunks.find((c) => c.isEntry);
      if (!entry) throw new Error('route pages: the build has no entry chunk');
      const inPage = new Set(graph(entry, new Set()));
      const html = readFileSync(join(outDir, 'index.html'), 'utf8');
      for (const [path, { screen }] of Object.entries(byPath)) {
        const module = `/src/${screenModules[screen]}`;
        const chunk = chunks.find((c) => c.facadeModuleId?.endsWith(module));
        if (!chunk) throw new Error(`route pages: no chunk for ${module} (routes.ts ${path})`);
        const scripts = graph(chunk, inPage);
        // Style sheets the page has already (the entry's, inlined by inlineEntryCss) are left out.
        const sheets = new Set(scripts.flatMap((name) => [...(byFile.get(name)?.viteMetadata?.importedCss ?? [])]).filter((name) => !html.includes(`href="/${name}"`)));
        const links = [
          ...[...sheets].map((name) => `<link rel="stylesheet" crossorigin href="/${name}">`),
          ...scripts.map((name) => `<link rel="modulepreload" crossorigin href="/${name}">`),
        ];
        const file = join(outDir, 'pages', `${path === '/' ? 'index' : path.slice(1)}.html`);
        mkdirSync(dirname(file), { recursive: true });
        writeFileSync(file, html.replace('</head>', `  ${links.join('\n    ')}\n  </head>`));
      }
    },
  };
}

// The BFF serves web/dist; in development `vite` proxies /api to a running BFF (BFF_URL).
const bff = process.env.BFF_URL ?? 'http://127.0.0.1:8080';

export default defineConfig({
  plugins: [react(), vanillaExtractPlugin(), inlineEntryCss(), earlyRequests(), routePages(), precompressAssets()],
  server: { proxy: { '/api': { target: bff, changeOrigin: true } } },
  build: {
    target: 'es2022',
    chunkSizeWarningLimit: 400,
    rolldownOptions: {
      // The contracts' money and settings modules build zod schemas at load time, which the web app
      // never uses: declaring zod's builders pure lets the bundler leave zod out of the app.
      treeshake: { manualPureFunctions: ['z'] },
      // Small common chunks (under 16 KiB: the API client, config, money, statuses, table cells…)
      // are copied into the chunks that use them instead of being files of their own (rolldown
      // keeps one module state through its shared runtime). A page asked for 14–18 files before
      // it could paint, now 7–10 with the same bytes; on the slow-4G phone Lighthouse simulates
      // over HTTP/1.1 (six connections) that is 150–200 ms less to the first paint.
      output: { codeSplitting: { experimentalInlineCommonChunks: { maxSize: 16 * 1024 } } },
    },
  },
  test: { environment: 'node', include: ['test/**/*.test.ts', 'test/**/*.test.tsx'] },
});
