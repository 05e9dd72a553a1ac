import { createHmac } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Member, api, asAdmin, balanceDeci, eventually, newMember, stack } from './support/api.ts';
import { type Theme, type Viewport, desktop, disconnect, heading, open, shot, toasts } from './support/browser.ts';

/**
 * Deposits matched automatically (issue 12): a signed bank notification approves the fitting
 * request at once; the rest wait in the console, where an operator attaches them or enters one by
 * hand. Screenshots at 1440 and 1024 px in both themes (artifacts/admin-deposits-*.png).
 */
const laptop: Viewport = { width: 1024, height: 768 };
let member: Member;

/** What a bank-transfer notification service sends (bff/API.md "Bank deposits"). */
async function notify(payload: Record<string, unknown>) {
  const secret = (JSON.parse(readFileSync(join(stack().dataDir, 'secrets.json'), 'utf8')) as { depositWebhookSecret: string }).depositWebhookSecret;
  const raw = JSON.stringify(payload);
  const ts = String(Math.floor(Date.now() / 1000));
  const signature = `sha256=${createHmac('sha256', secret).update(`${ts}.${raw}`).digest('hex')}`;
  const res = await fetch(`${stack().bffUrl}/api/deposits/notify`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-deposit-timestamp': ts, 'x-deposit-signature': signature },
    body: raw,
  });
  return { status: res.status, body: (await res.json()) as { id: string; status: string } };
}
const txId = (tag: string) => `E2E-${tag}-${Date.now().toString(36)}`;

beforeAll(async () => {
  member = await newMember();
});
afterAll(disconnect);

async function openDeposits(theme: Theme = 'light', viewport: Viewport = desktop) {
  const visit = await open({ token: await asAdmin(), theme, viewport });
  await visit.page.goto('/admin/deposits');
  await heading(visit.page, '입금 내역');
  return visit;
}

describe('deposits in the console', () => {
  it('a notified deposit that fits a pending request is credited at once and shows as matched', async () => {
    const name = `자동${member.id.slice(-3)}`;
    await api('POST', '/service/point', { token: member.token, body: { name, point: 10_000, feeType: 'none', feeValue: null } });
    const before = await balanceDeci(member.token);
    const tx = txId('match');
    expect((await notify({ transactionId: tx, depositorName: name, amount: 10_000 })).body.status).toBe('matched');
    await eventually(() => balanceDeci(member.token), (deci) => deci === before + 100_000, 20_000, 'balance after the matched deposit');
    const { page, context } = await openDeposits();
    await page.getByRole('group', { name: '연결 상태' }).getByRole('button', { name: '자동 연결' }).click();
    const row = page.getByTestId(`deposit-${tx}`);
    await row.waitFor();
    expect(await row.textContent()).toContain(member.id);
    await context.close();
  });

  it('an unmatched deposit waits under "확인 필요" until an operator attaches it to a member', async () => {
    const tx = txId('open');
    expect((await notify({ transactionId: tx, depositorName: '모르는입금', amount: 7_000 })).body.status).toBe('unmatched');
    const before = await balanceDeci(member.token);
    const { page, context, errors } = await openDeposits();
    const row = page.getByTestId(`deposit-${tx}`);
    await row.getByRole('button', { name: '연결' }).click();
    const dialog = page.getByRole('dialog');
    await dialog.getByRole('button', { name: '연결하기' }).click();
    expect(await dialog.getByRole('alert').textContent()).toBe('연결할 충전 요청 번호 또는 회원 아이디를 입력해 주세요.');
    await dialog.getByLabel('회원 아이디').first().check();
    await dialog.getByRole('textbox', { name: '회원 아이디' }).fill('no-such-member-x');
    await dialog.getByRole('button', { name: '연결하기' }).click();
    expect(await dialog.getByRole('alert').textContent()).toBe('회원 정보를 찾을 수 없습니다.');
    await dialog.getByRole('textbox', { name: '회원 아이디' }).fill(member.id);
    await dialog.getByRole('button', { name: '연결하기' }).click();
    await expect.poll(() => toasts(page).allTextContents()).toContain('입금을 연결했습니다. 포인트가 충전되었습니다.');
    await row.waitFor({ state: 'detached' });
    await eventually(() => balanceDeci(member.token), (deci) => deci === before + 70_000, 20_000, 'balance after attaching');
    expect(errors).toEqual([]);
    await context.close();
  });

  it('a deposit entered by hand finds its request like a notified one', async () => {
    const name = `수동${member.id.slice(-3)}`;
    await api('POST', '/service/point', { token: member.token, body: { name, point: 5_000, feeType: 'none', feeValue: null } });
    const before = await balanceDeci(member.token);
    const { page, context } = await openDeposits();
    const form = page.getByRole('form', { name: '입금 직접 입력' });
    await form.getByRole('button', { name: '입금 등록' }).click();
    expect(await page.getByRole('alert').first().textContent()).toBe('입금자명을 입력해 주세요.');
    await form.getByLabel('입금자명').fill(name);
    await form.getByLabel('입금액(원)').fill('5000');
    await form.getByRole('button', { name: '입금 등록' }).click();
    await expect.poll(() => toasts(page).allTextContents()).toContain('입금을 등록했고 충전 요청에 자동으로 연결했습니다.');
    await eventually(() => balanceDeci(member.token), (deci) => deci === before + 50_000, 20_000, 'balance after the hand entry');
    await context.close();
  });
});

describe('screenshots', () => {
  beforeAll(async () => {
    await notify({ transactionId: txId('shot1'), depositorName: '김미확인', amount: 33_000 });
    const name = `중복${member.id.slice(-3)}`;
    for (const feeType of ['none', 'cash']) {
      await api('POST', '/service/point', { token: member.token, body: { name, point: 5_000, feeType, feeValue: feeType === 'cash' ? { phone: '01012345678' } : null } });
    }
    await notify({ transactionId: txId('shot2'), depositorName: name, amount: 5_000 });
  });

  it.each([
    ['light', '1440', desktop],
    ['dark', '1440', desktop],
    ['light', '1024', laptop],
    ['dark', '1024', laptop],
  ] as const)('deposit queue, %s theme at %s px', async (theme, width, viewport) => {
    const { page, context } = await openDeposits(theme, viewport);
    await page.locator('tbody tr').first().waitFor();
    await shot(page, `admin-deposits-${theme}-${width}`);
    await page.locator('tbody tr', { hasText: '후보 여러 건' }).first().getByRole('button', { name: '연결' }).click();
    await page.getByRole('dialog').waitFor();
    await shot(page, `admin-deposit-attach-${theme}-${width}`, { fullPage: false });
    await context.close();
  });
});
