/**
 * Web app benchmark: production build size and Lighthouse scores.
 *
 *   node --import tsx web/bench/bench.ts            (from the repository root)
 *
 * 1. Builds the app (`npm run build -w @smm/web`).
 * 2. Initial JavaScript: the entry script and the modulepreload links of dist/index.html, each
 *    gzipped with node:zlib (level 9) and summed; the initial CSS likewise; the largest lazy chunks.
 * 3. Lighthouse (the `lighthouse` CLI, Debian Chromium headless) against the BFF serving the built
 *    app — a devstack started in a throwaway data directory, or the running one at BENCH_URL — for
 *    `/` and `/order`, with the mobile (default) and desktop presets: performance and accessibility.
 *
 * Targets (issue text): initial JS ≤ 150 KB gzip, scores ≥ 95. Variables: BENCH_URL (skip starting
 * a devstack), BENCH_SKIP_BUILD=1, BENCH_SKIP_LIGHTHOUSE=1, BENCH_PRESETS=mobile,desktop,
 * BENCH_PATHS=/,/order, BENCH_RUNS=1 (Lighthouse runs per page and preset; the median is kept),
 * BENCH_STRICT=1 (exit 1 when a target is missed), BENCH_REPORT_DIR (keep each Lighthouse JSON report
 * there), CHROMIUM (default /usr/bin/chromium).
 */
import { spawn, spawnSync } from 'node:child_process';
import { copyFileSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { type Devstack, repoRoot, startDevstack } from '../test/e2e/support/devstack.ts';

const webDir = join(repoRoot, 'web');
const dist = join(webDir, 'dist');
const chromium = process.env.CHROMIUM ?? '/usr/bin/chromium';
const chromeFlags = ['--headless=new', '--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--disable-sync'];
const targets = { initialJsGzipKb: 150, score: 95 };
const list = (value: string | undefined, fallback: string[]) => (value ? value.split(',').map((v) => v.trim()).filter(Boolean) : fallback);
const presets = list(process.env.BENCH_PRESETS, ['mobile', 'desktop']);
const paths = list(process.env.BENCH_PATHS, ['/', '/order']);
const runs = Math.max(1, Number(process.env.BENCH_RUNS ?? 1) || 1);

const kb = (bytes: number) => `${(bytes / 1024).toFixed(1)} KB`;
const gzipSize = (file: string) => gzipSync(readFileSync(file), { level: 9 }).length;
let missed = 0;
const mark = (ok: boolean) => {
  if (!ok) missed++;
  return ok ? '✓' : '✗';
};

function build(): void {
  if (process.env.BENCH_SKIP_BUILD === '1') return;
  console.log('building: npm run build -w @smm/web');
  const started = Date.now();
  const result = spawnSync('npm', ['run', 'build', '-w', '@smm/web'], { cwd: repoRoot, stdio: ['ignore', 'pipe', 'pipe'], encoding: 'utf8' });
  if (result.status !== 0) {
    console.error(result.stdout, result.stderr);
    throw new Error(`the build failed (exit ${result.status})`);
  }
  console.log(`built in ${((Date.now() - started) / 1000).toFixed(1)} s\n`);
}

function sizes(): void {
  const html = readFileSync(join(dist, 'index.html'), 'utf8');
  const attr = (tag: string, name: string) => new RegExp(`${name}="([^"]+)"`).exec(tag)?.[1];
  const tags = html.match(/<(script|link)\b[^>]*>/g) ?? [];
  const scripts = tags.filter((t) => t.startsWith('<script') && /type="module"/.test(t)).map((t) => attr(t, 'src'));
  const preloads = tags.filter((t) => /rel="modulepreload"/.test(t)).map((t) => attr(t, 'href'));
  const styles = tags.filter((t) => /rel="stylesheet"/.test(t)).map((t) => attr(t, 'href'));
  const local = (url: string | undefined): url is string => typeof url === 'string' && url.startsWith('/');
  const initialJs = [...scripts, ...preloads].filter(local);
  const initialCss = styles.filter(local);
  const file = (url: string) => join(dist, url.replace(/^\//, ''));

  console.log('Initial JavaScript (entry + modulepreload, gzip -9):');
  let jsTotal = 0;
  let rawTotal = 0;
  for (const url of initialJs) {
    const gz = gzipSize(file(url));
    const raw = readFileSync(file(url)).length;
    jsTotal += gz;
    rawTotal += raw;
    console.log(`  ${url.padEnd(44)} ${kb(raw).padStart(10)} raw  ${kb(gz).padStart(9)} gzip`);
  }
  console.log(`  ${'total'.padEnd(44)} ${kb(rawTotal).padStart(10)} raw  ${kb(jsTotal).padStart(9)} gzip   target ≤ ${targets.initialJsGzipKb} KB ${mark(jsTotal / 1024 <= targets.initialJsGzipKb)}`);
  let cssTotal = 0;
  for (const url of initialCss) cssTotal += gzipSize(file(url));
  console.log(`Initial CSS: ${initialCss.length} file(s), ${kb(cssTotal)} gzip`);

  const initial = new Set(initialJs.map((url) => url.replace(/^\//, '')));
  const lazy = readdirSync(join(dist, 'assets'))
    .filter((name) => name.endsWith('.js') && !initial.has(`assets/${name}`))
    .map((name) => ({ name, gz: gzipSize(join(dist, 'assets', name)) }))
    .sort((a, b) => b.gz - a.gz);
  const lazyTotal = lazy.reduce((sum, chunk) => sum + chunk.gz, 0);
  console.log(`Lazy chunks: ${lazy.length}, ${kb(lazyTotal)} gzip in all; the largest:`);
  for (const chunk of lazy.slice(0, 8)) console.log(`  ${`/assets/${chunk.name}`.padEnd(44)} ${kb(chunk.gz).padStart(9)} gzip`);
  console.log('');
}

type Scores = { performance: number; accessibility: number; lcpMs: number; tbtMs: number; cls: number; fcpMs: number; benchmarkIndex: number; failing: string[] };

function lighthouseOnce(url: string, preset: string): Promise<Scores> {
  const cli = createRequire(import.meta.url).resolve('lighthouse/cli/index.js');
  const out = mkdtempSync(join(tmpdir(), 'web-bench-lh-'));
  const report = join(out, 'report.json');
  const args = [
    cli,
    url,
    '--output=json',
    `--output-path=${report}`,
    '--only-categories=performance,accessibility',
    `--chrome-flags=${chromeFlags.join(' ')}`,
    '--quiet',
    ...(preset === 'desktop' ? ['--preset=desktop'] : []),
  ];
  return new Promise((resolve, reject) => {
    let stderr = '';
    const child = spawn(process.execPath, args, { env: { ...process.env, CHROME_PATH: chromium }, stdio: ['ignore', 'ignore', 'pipe'] });
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    const timer = setTimeout(() => child.kill('SIGKILL'), 180_000);
    child.once('exit', (code) => {
      clearTimeout(timer);
      try {
        if (code !== 0) throw new Error(`lighthouse exited ${code}:\n${stderr.slice(-3000)}`);
        const keep = process.env.BENCH_REPORT_DIR;
        if (keep) {
          mkdirSync(keep, { recursive: true });
          copyFileSync(report, join(keep, `${preset}${url.replace(/^https?:\/\/[^/]+/, '').replace(/\W+/g, '-') || '-'}${Date.now()}.json`));
        }
        type Audit = { score: number | null; numericValue?: number; title: string; scoreDisplayMode: string };
        const lhr = JSON.parse(readFileSync(report, 'utf8')) as {
          categories: Record<string, { score: number | null; auditRefs: Array<{ id: string; weight: number }> }>;
          audits: Record<string, Audit>;
          runtimeError?: { message: string };
          environment?: { benchmarkIndex?: number };
        };
        if (lhr.runtimeError) throw new Error(`lighthouse: ${lhr.runtimeError.message}`);
        const score = (id: string) => Math.round((lhr.categories[id]?.score ?? 0) * 100);
        const metric = (id: string) => lhr.audits[id]?.numericValue ?? Number.NaN;
        const failing = Object.values(lhr.categories)
          .flatMap((c) => c.auditRefs.filter((r) => r.weight > 0).map((r) => lhr.audits[r.id]))
          .filter((a): a is Audit => a !== undefined && a.scoreDisplayMode !== 'notApplicable' && a.score !== null && a.score < 0.9)
          .map((a) => `${a.title} (${Math.round((a.score ?? 0) * 100)})`);
        resolve({
          performance: score('performance'),
          accessibility: score('accessibility'),
          lcpMs: metric('largest-contentful-paint'),
          tbtMs: metric('total-blocking-time'),
          cls: metric('cumulative-layout-shift'),
          fcpMs: metric('first-contentful-paint'),
          benchmarkIndex: Math.round(lhr.environment?.benchmarkIndex ?? 0),
          failing,
        });
      } catch (error) {
        reject(error instanceof Error ? error : new Error(String(error)));
      } finally {
        rmSync(out, { recursive: true, force: true });
      }
    });
  });
}

async function lighthouse(base: string): Promise<void> {
  console.log(`Lighthouse ${createRequire(import.meta.url)('lighthouse/package.json').version} (${chromium}), ${runs} run(s) each, median kept — ${base}`);
  console.log(`  ${'page'.padEnd(8)} ${'preset'.padEnd(8)} ${'perf'.padStart(5)} ${'a11y'.padStart(5)}   FCP      LCP      TBT     CLS   CPU index`);
  for (const path of paths) {
    for (const preset of presets) {
      const results: Scores[] = [];
      for (let i = 0; i < runs; i++) results.push(await lighthouseOnce(new URL(path, base).toString(), preset));
      results.sort((a, b) => a.performance - b.performance);
      const r = results[Math.floor(results.length / 2)]!;
      const ms = (v: number) => `${Math.round(v)} ms`.padStart(8);
      console.log(
        `  ${path.padEnd(8)} ${preset.padEnd(8)} ${`${r.performance}${mark(r.performance >= targets.score)}`.padStart(5)} ${`${r.accessibility}${mark(r.accessibility >= targets.score)}`.padStart(5)} ${ms(r.fcpMs)} ${ms(r.lcpMs)} ${ms(r.tbtMs)} ${r.cls.toFixed(3).padStart(6)} ${String(r.benchmarkIndex).padStart(7)}`,
      );
      for (const audit of r.failing) console.log(`      below 90: ${audit}`);
    }
  }
  console.log(`  targets: performance and accessibility ≥ ${targets.score}`);
  console.log('  (CPU index = Lighthouse benchmarkIndex of this machine during the run; mobile scores simulate a 4× slower CPU on top, so a busy machine lowers them)');
}

build();
sizes();
if (process.env.BENCH_SKIP_LIGHTHOUSE !== '1') {
  let stack: Devstack | undefined;
  try {
    let base = process.env.BENCH_URL;
    if (!base) {
      console.log('starting the devstack (temporary data directory)…');
      stack = await startDevstack({}, { prefix: 'web-bench-' });
      base = stack.find(/bff: ready at (http:\/\/\S+)/, 'bff address');
    }
    await lighthouse(base);
  } finally {
    await stack?.stop();
  }
}
if (missed > 0) console.log(`\n${missed} figure(s) miss their target.`);
process.exit(process.env.BENCH_STRICT === '1' && missed > 0 ? 1 : 0);
