/* global process, fetch, console, localStorage, sessionStorage */
// Screenshots of the running app for a visual check (not a test):
//   BASE=http://127.0.0.1:8080 node scripts/screenshots.mjs [name=path@width:mode[:dark] ...]
// mode: visitor (no token), guest (browse mode), member (registers/logs in LOGIN_ID/LOGIN_PASSWORD).
// Output: OUT (default /tmp/web-shots). Uses the system chromium, no browser download.
import { mkdirSync } from 'node:fs';
import { chromium } from 'playwright-core';

const base = process.env.BASE ?? 'http://127.0.0.1:8080';
const out = process.env.OUT ?? '/tmp/web-shots';
const loginId = process.env.LOGIN_ID ?? 'shotmember';
const password = process.env.LOGIN_PASSWORD ?? 'shotpass123';
mkdirSync(out, { recursive: true });

async function memberToken() {
  const post = (path, body) => fetch(`${base}/api${path}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
  await post('/auth/register', { id: loginId, password, email: `${loginId}@example.com`, registerWhere: '지인 추천' });
  const res = await post('/auth/login', { id: loginId, password });
  const body = await res.json();
  if (!body.accessToken) throw new Error(`login failed: ${JSON.stringify(body)}`);
  return body.accessToken;
}

const shots = process.argv.slice(2).map((arg) => {
  const [name, rest] = arg.split('=');
  const [path, spec = '1440:visitor'] = rest.split('@');
  const [width, mode = 'visitor', dark] = spec.split(':');
  return { name, path, width: Number(width), mode, dark: dark === 'dark' };
});

const browser = await chromium.launch({
  executablePath: process.env.CHROMIUM ?? '/usr/bin/chromium',
  args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--disable-sync'],
});
let token = null;
try {
  for (const shot of shots) {
    if (shot.mode === 'member' && !token) token = await memberToken();
    const context = await browser.newContext({
      viewport: { width: shot.width, height: shot.width < 800 ? 860 : 900 },
      deviceScaleFactor: 1,
      locale: 'ko-KR',
      timezoneId: 'Asia/Seoul',
      colorScheme: shot.dark ? 'dark' : 'light',
    });
    await context.addInitScript(
      ({ mode, token }) => {
        if (sessionStorage.getItem('shot-init')) return;
        sessionStorage.setItem('shot-init', '1');
        localStorage.clear();
        if (mode === 'member') {
          localStorage.setItem('smm.token', token);
          localStorage.setItem('smm.authMode', 'authorized');
        } else if (mode === 'guest') localStorage.setItem('smm.authMode', 'guest');
      },
      { mode: shot.mode, token },
    );
    const page = await context.newPage();
    page.on('pageerror', (error) => console.error(`[${shot.name}] page error: ${error.message}`));
    await page.goto(`${base}${shot.path}`, { waitUntil: 'networkidle' });
    await page.waitForTimeout(400);
    await page.screenshot({ path: `${out}/${shot.name}.png`, fullPage: true });
    console.log(`${out}/${shot.name}.png`);
    await context.close();
  }
} finally {
  await browser.close();
}
