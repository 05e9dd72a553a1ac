/* global URL */
/* global console, process */
// Initial JavaScript of the built app (entry + modulepreloaded chunks), gzip-compressed, against
// the 150 KB budget of the issue. Run after `npm run build`: node scripts/bundle-size.mjs
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';

const dist = new URL('../dist/', import.meta.url).pathname;
const budget = 150 * 1024;
const html = readFileSync(join(dist, 'index.html'), 'utf8');
const files = [...html.matchAll(/(?:src|href)="\/(assets\/[^"]+\.(?:js|css))"/g)].map((m) => m[1]);
let js = 0;
for (const file of files) {
  const size = gzipSync(readFileSync(join(dist, file)), { level: 9 }).length;
  if (file.endsWith('.js')) js += size;
  console.log(`${(size / 1024).toFixed(2).padStart(8)} KB  ${file}`);
}
console.log(`initial JS (gzip): ${(js / 1024).toFixed(2)} KB of ${budget / 1024} KB`);
if (js > budget) {
  console.error('over budget');
  process.exit(1);
}
