import { vanillaExtractPlugin } from '@vanilla-extract/vite-plugin';
import react from '@vitejs/plugin-react';
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

// The BFF serves web/dist; in development `vite` proxies /api to a running BFF (BFF_URL).
const bff = process.env.BFF_URL ?? 'http://127.0.0.1:8080';

export default defineConfig({
  plugins: [react(), vanillaExtractPlugin(), inlineEntryCss()],
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
