import { join } from 'node:path';
import { type Browser, type BrowserContext, type Page, chromium } from 'playwright-core';
import { stack } from './api.ts';

export type Theme = 'light' | 'dark';
export type Viewport = { width: number; height: number };

export const desktop: Viewport = { width: 1440, height: 900 };
export const phone: Viewport = { width: 390, height: 844 };

let browser: Browser | undefined;

/** The one headless Chromium of the run (started by the global setup), connected once per file. */
export async function connect(): Promise<Browser> {
  browser ??= await chromium.connect(stack().wsEndpoint);
  return browser;
}

export async function disconnect(): Promise<void> {
  await browser?.close();
  browser = undefined;
}

export type Visit = {
  context: BrowserContext;
  page: Page;
  /** Uncaught page errors and console errors seen so far (a screen must not throw). */
  errors: string[];
};

/**
 * A fresh browser context (own storage), Korean locale and Seoul time. `theme` pins the stored
 * dark-mode choice; `token` signs a member in the way the app does after a login; `guest` sets
 * browse mode. Storage is set once per context, so reloads keep what the app itself stored.
 */
export async function open(options: { viewport?: Viewport; theme?: Theme; token?: string; guest?: boolean; mobile?: boolean } = {}): Promise<Visit> {
  const b = await connect();
  const viewport = options.viewport ?? desktop;
  const context = await b.newContext({
    viewport,
    deviceScaleFactor: 1,
    locale: 'ko-KR',
    timezoneId: 'Asia/Seoul',
    colorScheme: options.theme ?? 'light',
    isMobile: options.mobile ?? false,
    hasTouch: options.mobile ?? false,
    baseURL: stack().bffUrl,
  });
  await context.addInitScript(
    ({ theme, token, guest }) => {
      if (window.sessionStorage.getItem('e2e-init') === '1') return;
      window.sessionStorage.setItem('e2e-init', '1');
      if (theme) window.localStorage.setItem('smm.darkMode', String(theme === 'dark'));
      if (token) {
        window.localStorage.setItem('smm.token', token);
        window.localStorage.setItem('smm.authMode', 'authorized');
      } else if (guest) window.localStorage.setItem('smm.authMode', 'guest');
    },
    { theme: options.theme ?? null, token: options.token ?? null, guest: options.guest ?? false },
  );
  // Every toast the page shows is noted as it appears: a toast lasts 2 s, which a test on a loaded
  // machine can miss between two looks (see `toasts`).
  await context.addInitScript(() => {
    const shown: string[] = [];
    (window as unknown as { __toastsShown: string[] }).__toastsShown = shown;
    const note = (node: Node) => {
      if (!(node instanceof Element)) return;
      const found = node.matches('[data-testid="toast"]') ? [node] : [...node.querySelectorAll('[data-testid="toast"]')];
      for (const toast of found) shown.push(toast.textContent ?? '');
    };
    new MutationObserver((changes) => changes.forEach((change) => change.addedNodes.forEach(note))).observe(document, { childList: true, subtree: true });
  });
  const page = await context.newPage();
  page.setDefaultTimeout(15_000);
  const errors: string[] = [];
  page.on('pageerror', (error) => errors.push(`pageerror: ${error.message}`));
  page.on('console', (message) => {
    // A failed request the app handles (a 401 that drops the token, a 404 it maps) is not a bug.
    if (message.type() === 'error' && !/Failed to load resource/.test(message.text())) errors.push(`console: ${message.text()}`);
  });
  return { context, page, errors };
}

/**
 * Waits until the app has settled (no requests for 500 ms, web fonts ready, and two frames painted
 * so what the last answers rendered is on screen; the screenshot itself finishes CSS animations).
 * Two frames instead of a fixed 250 ms: the suite takes about 150 screenshots.
 */
export async function settle(page: Page): Promise<void> {
  await page.waitForLoadState('networkidle');
  await page.evaluate(() => document.fonts.ready.then(() => new Promise<void>((done) => requestAnimationFrame(() => requestAnimationFrame(() => done())))));
}

/** A screenshot (full page unless told otherwise) in web/test/e2e/artifacts/<name>.png. */
export async function shot(page: Page, name: string, options: { fullPage?: boolean } = {}): Promise<string> {
  await settle(page);
  // A full-page capture of a scrolled page paints the sticky header in the middle: start at the top.
  await page.evaluate(() => window.scrollTo(0, 0));
  const fullPage = options.fullPage ?? true;
  const path = join(stack().artifactsDir, `${name}.png`);
  await page.screenshot({ path, fullPage, animations: 'disabled' });
  return path;
}

/**
 * The texts of the toasts (the app's 2-second notifications) the page has shown since it was
 * loaded, gone ones included: a poll that looks only at the screen misses a toast that came and
 * went between two looks, as a busy CI runner's did. A test that expects the same message twice on
 * one page counts it (`filter`), since the first one stays in the list.
 */
export function toasts(page: Page) {
  return { allTextContents: () => page.evaluate(() => [...((window as unknown as { __toastsShown?: string[] }).__toastsShown ?? [])]) };
}

/** Waits for the screen's h1 (screens are lazy chunks: the previous one may still be showing). */
export async function heading(page: Page, text: string): Promise<void> {
  await page.getByRole('heading', { level: 1, name: text, exact: true }).waitFor();
}
