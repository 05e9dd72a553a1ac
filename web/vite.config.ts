import { vanillaExtractPlugin } from '@vanilla-extract/vite-plugin';
import react from '@vitejs/plugin-react';
import { defineConfig } from 'vitest/config';

// The BFF serves web/dist; in development `vite` proxies /api to a running BFF (BFF_URL).
const bff = process.env.BFF_URL ?? 'http://127.0.0.1:8080';

export default defineConfig({
  plugins: [react(), vanillaExtractPlugin()],
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
