import { vanillaExtractPlugin } from '@vanilla-extract/vite-plugin';
import react from '@vitejs/plugin-react';
import { readFileSync, readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { brotliCompressSync, constants, gzipSync } from 'node:zlib';
import type { Plugin } from 'vite';
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

// The BFF serves web/dist; in development `vite` proxies /api to a running BFF (BFF_URL).
const bff = process.env.BFF_URL ?? 'http://127.0.0.1:8080';

export default defineConfig({
  plugins: [react(), vanillaExtractPlugin(), inlineEntryCss(), precompressAssets()],
  server: { proxy: { '/api': { target: bff, changeOrigin: true } } },
  build: {
    target: 'es2022',
    chunkSizeWarningLimit: 400,
    // The contracts' money and settings modules build zod schemas at load time, which the web app
    // never uses: declaring zod's builders pure lets the bundler leave zod out of the app.
    rolldownOptions: { treeshake: { manualPureFunctions: ['z'] } },
  },
  test: { environment: 'node', include: ['test/**/*.test.ts', 'test/**/*.test.tsx'] },
});
