#!/usr/bin/env node
// `npm start`: compiles the launcher (src/main.ts with the packages of ours it imports) to
// .build/launcher.mjs and runs it, so no process of the stack carries tsx; the launcher compiles
// its children the same way (src/compile.ts). The file sits where src/main.ts's paths still hold.
/* global process, URL */
import { renameSync, writeFileSync, mkdirSync } from 'node:fs';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { build, stop } from 'esbuild';

const here = new URL('../', import.meta.url);
const outfile = fileURLToPath(new URL('.build/launcher.mjs', here));
const result = await build({
  entryPoints: [fileURLToPath(new URL('src/main.ts', here))],
  outfile,
  bundle: true,
  platform: 'node',
  format: 'esm',
  target: 'node20',
  sourcemap: 'linked',
  write: false,
  logLevel: 'error',
  // npm packages are imported from node_modules as usual; our own TypeScript is compiled in.
  plugins: [{ name: 'ours-only', setup: (b) => b.onResolve({ filter: /^[^./]/ }, (args) => (args.path.startsWith('@smm/') ? undefined : { path: args.path, external: true })) }],
});
await stop();
mkdirSync(fileURLToPath(new URL('.build/', here)), { recursive: true });
// Launchers starting at the same moment each write whole files and rename them into place.
for (const file of result.outputFiles) {
  const partial = `${file.path}.${process.pid}.tmp`;
  writeFileSync(partial, file.contents);
  renameSync(partial, file.path);
}
process.setSourceMapsEnabled(true);
await import(pathToFileURL(outfile).href);
