import { describe, expect, it } from 'vitest';
import { forgedCallerHeaders } from '@smm/testkit';
import { stack } from './support/client.ts';
import { member, pointDeciOf, requestTopUp } from './support/money.ts';

/**
 * The audit's attack on the running devstack: a member files a 10,000,000-won top-up through the
 * BFF, then calls the wallet's port directly claiming to be an operator. Nothing is approved.
 */
describe('internal ports', () => {
  it('refuse a direct approval that only claims admin, or carries a forged, expired or foreign credential', async () => {
    const m = await member();
    const filed = await requestTopUp(m, { name: '직접호출', point: 10_000_000, feeType: 'none', feeValue: null });
    expect(filed.status).toBe(201);
    for (const [name, headers] of Object.entries(forgedCallerHeaders('wallet'))) {
      const res = await fetch(`${stack().walletUrl}/admin/top-ups/${String(filed.body.id)}/approve`, { method: 'POST', headers });
      expect({ name, status: res.status }).toEqual({ name, status: 401 });
    }
    expect(await pointDeciOf(m)).toBe(0);
  });
});
