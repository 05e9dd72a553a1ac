import { describe, expect, it } from 'vitest';
import { checkAccountLedger } from './ledger.ts';

const entry = (seq: number, deltaDeci: number, balanceAfterDeci: number) => ({ seq, deltaDeci, balanceAfterDeci, kind: deltaDeci < 0 ? ('debit' as const) : ('credit' as const), referenceId: `r${seq}` });

describe('checkAccountLedger', () => {
  it('accepts a consistent chain in any order, and an untouched account', () => {
    expect(checkAccountLedger({ userId: 'a', balanceDeci: 30, seq: 3 }, [entry(3, -20, 30), entry(1, 100, 100), entry(2, -50, 50)])).toEqual([]);
    expect(checkAccountLedger({ userId: 'b', balanceDeci: 0 }, [])).toEqual([]);
  });

  it('names each broken rule once', () => {
    const rules = (account: { balanceDeci: number; seq: number }, entries: ReturnType<typeof entry>[]) =>
      checkAccountLedger({ userId: 'a', ...account }, entries).map((v) => v.rule);
    expect(rules({ balanceDeci: 10, seq: 1 }, [entry(1, 100, 100)])).toEqual(['sum-equals-balance']);
    expect(rules({ balanceDeci: 100, seq: 2 }, [entry(2, 100, 100)])).toEqual(['seq-contiguous']);
    expect(rules({ balanceDeci: 50, seq: 2 }, [entry(1, 100, 100), entry(2, -50, 60)])).toEqual(['balance-chain']);
    expect(rules({ balanceDeci: 0, seq: 2 }, [entry(1, -10, -10), entry(2, 10, 0)])).toEqual(['never-negative']);
    expect(rules({ balanceDeci: 100, seq: 5 }, [entry(1, 100, 100)])).toEqual(['account-seq']);
    expect(rules({ balanceDeci: 100, seq: 1 }, [{ ...entry(1, 100, 100), kind: 'debit' }])).toEqual(['kind-sign']);
  });
});
