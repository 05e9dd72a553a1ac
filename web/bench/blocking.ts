/**
 * Main-thread blocking of a page load, observed (issue 17): what Lighthouse's simulation is made
 * of, measured directly so two builds can be compared on a machine that is not quiet.
 *
 *   npm run bench:blocking -w @smm/web        (or `npm run bench:blocking` in web/)
 *
 * For each page and run: a fresh Debian Chromium (playwright-core), a phone viewport, the member's
 * token in localStorage for member pages (as lighthouse.ts), Chromium's own 4× CPU slowdown (real,
 * not simulated; no network throttling), a trace of the load and 5 s after it. Printed per page, the
 * medians of BENCH_RUNS (default 5): first and largest contentful paint, blocking time after the
 * first paint (the sum over tasks of their time beyond 50 ms), blocking time over the whole load,
 * and the main thread's CPU time.
 *
 * Variables: BENCH_URL and BENCH_ADMIN_PASSWORD (use a running app; otherwise a devstack is started
 * in a throwaway data directory), BENCH_PATHS (as lighthouse.ts), BENCH_RUNS, CHROME_PATH.
 */
import { loadavg } from 'node:os';
import { chromium } from 'playwright-core';
import { type Member, type Page, appUnderTest, loadAverages, login, pagesFromEnv } from './setup.ts';

const chromeFlags = ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--disable-sync'];
const runs = Math.max(1, Number(process.env.BENCH_RUNS ?? 5) || 5);
const pages = pagesFromEnv();

type TraceEvent = { name: string; ph: string; pid: number; tid: number; ts: number; dur?: number; tdur?: number; args?: { data?: { documentLoaderURL?: string; isLoadingMainFrame?: boolean } } };
type Run = { fcp: number; lcp: number; blockingAfterFcp: number; blockingAll: number; cpu: number; landed: string };

async function measure(base: string, page: Page, member: Member): Promise<Run> {
  const browser = await chromium.launch({ executablePath: process.env.CHROME_PATH ?? '/usr/bin/chromium', args: chromeFlags });
  try {
    const context = await browser.newContext({ viewport: { width: 412, height: 823 }, deviceScaleFactor: 1.75, isMobile: true, hasTouch: true });
    const tab = await context.newPage();
    if (page.member) {
      const token = await login(base, member);
      await tab.goto(new URL('/robots.txt', base).toString());
      await tab.evaluate((t) => {
        localStorage.setItem('smm.token', t);
        localStorage.setItem('smm.authMode', 'authorized');
      }, token);
    }
    const cdp = await context.newCDPSession(tab);
    await cdp.send('Emulation.setCPUThrottlingRate', { rate: 4 });
    const events: TraceEvent[] = [];
    cdp.on('Tracing.dataCollected', (e) => {
      events.push(...(e.value as unknown as TraceEvent[]));
    });
    const complete = new Promise((resolve) => cdp.once('Tracing.tracingComplete', resolve));
    await cdp.send('Tracing.start', { categories: 'devtools.timeline,disabled-by-default-devtools.timeline,loading,blink.user_timing', transferMode: 'ReportEvents' });
    await tab.goto(new URL(page.path, base).toString(), { waitUntil: 'load' });
    await tab.waitForTimeout(5000);
    await cdp.send('Tracing.end');
    await complete;
    return summarize(events, new URL(page.path, base).toString(), new URL(tab.url()).pathname);
  } finally {
    await browser.close();
  }
}

/** The renderer's main thread is the one that lays out; its tasks from the navigation on. */
function summarize(events: TraceEvent[], url: string, landed: string): Run {
  const layouts = new Map<string, number>();
  for (const e of events) if (e.name === 'Layout') layouts.set(`${e.pid}:${e.tid}`, (layouts.get(`${e.pid}:${e.tid}`) ?? 0) + 1);
  const main = [...layouts.entries()].sort((a, b) => b[1] - a[1])[0]?.[0];
  if (!main) throw new Error('no layout in the trace');
  const onMain = (e: TraceEvent) => `${e.pid}:${e.tid}` === main;
  // The main frame's navigation to the page (images such as SVGs have navigations of their own, and
  // paints of the page before, where the token was stored, can be reported after tracing started).
  const start = events.find((e) => e.name === 'navigationStart' && e.args?.data?.isLoadingMainFrame === true && e.args.data.documentLoaderURL === url)?.ts;
  const fcp = start === undefined ? undefined : events.find((e) => e.name === 'firstContentfulPaint' && e.ts > start)?.ts;
  const lcp = events.filter((e) => e.name === 'largestContentfulPaint::Candidate' && start !== undefined && e.ts > start).at(-1)?.ts;
  if (start === undefined || fcp === undefined) throw new Error('no navigation or first paint in the trace');
  const tasks = events.filter((e) => onMain(e) && e.ph === 'X' && e.name === 'RunTask' && e.ts >= start);
  const blocking = (list: TraceEvent[]) => list.reduce((sum, t) => sum + Math.max(0, (t.dur ?? 0) / 1000 - 50), 0);
  return {
    fcp: (fcp - start) / 1000,
    lcp: lcp === undefined ? Number.NaN : (lcp - start) / 1000,
    blockingAfterFcp: blocking(tasks.filter((t) => t.ts >= fcp)),
    blockingAll: blocking(tasks),
    cpu: tasks.reduce((sum, t) => sum + (t.tdur ?? 0) / 1000, 0),
    landed,
  };
}

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;
const cell = (v: number) => String(Math.round(v)).padStart(6);

async function main(): Promise<void> {
  const { base, member, stop } = await appUnderTest('web-blocking-');
  try {
    console.log(`Chromium 4× CPU slowdown, phone viewport, no network throttling; median of ${runs} run(s) — ${base}`);
    console.log(`load average at start: ${loadAverages()}`);
    console.log('| page | path | FCP ms | LCP ms | blocking after FCP ms | blocking, whole load ms | main-thread CPU ms | load |');
    console.log('|---|---|---:|---:|---:|---:|---:|---:|');
    for (const page of pages) {
      const results: Run[] = [];
      for (let i = 0; i < runs; i++) results.push(await measure(base, page, member));
      const landed = [...new Set(results.map((r) => r.landed))].filter((p) => p !== page.path);
      const m = (key: keyof Omit<Run, 'landed'>) => cell(median(results.map((r) => r[key])));
      console.log(`| ${page.name} | ${page.path}${landed.length ? ` (some runs → ${landed.join(', ')})` : ''} | ${m('fcp')} | ${m('lcp')} | ${m('blockingAfterFcp')} | ${m('blockingAll')} | ${m('cpu')} | ${loadavg()[0]!.toFixed(1)} |`);
    }
  } finally {
    await stop();
  }
}

await main();
