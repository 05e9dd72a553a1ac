import type { Ref } from 'react';
import { count, won } from '../../lib/format.ts';
import * as ui from '../../ui/ui.css.ts';
import { orderText as t } from './messages.ts';
import * as s from './order.css.ts';

type Props = {
  productName: string | undefined;
  unitPriceDeci: number | undefined;
  /** The catalogue's price when the member's rate changed it (issue 40). */
  listUnitPriceDeci?: number | undefined;
  quantity: number;
  balanceDeci: number;
  priceDeci: number;
  /** The operators' service check is on: nothing can be ordered. */
  serviceCheck: boolean;
  /** Why the balance does not cover the order, once a submit found it. */
  balanceProblem: string | undefined;
  disabled: boolean;
  busy: boolean;
  /** The submit button, focused when the balance is the problem. */
  submitRef: Ref<HTMLButtonElement>;
};

/** The order's summary beside the form: product, unit price, quantity, balance, total and the submit button. */
export function OrderSummary({ productName, unitPriceDeci, listUnitPriceDeci, quantity, balanceDeci, priceDeci, serviceCheck, balanceProblem, disabled, busy, submitRef }: Props) {
  return (
    <aside className={s.summary} aria-label="결제 요약">
      <section className={ui.card}>
        <h2 className={ui.cardTitle}>주문 요약</h2>
        <div className={ui.stack} style={{ gap: 10 }}>
          <div className={s.summaryRow}>
            <span>상품</span>
            <span className={s.summaryValue} style={{ textAlign: 'right' }}>{productName ?? '—'}</span>
          </div>
          <div className={s.summaryRow}>
            <span>단가</span>
            <span className={s.summaryValue}>{unitPriceDeci === undefined ? '—' : t.perUnit(won(unitPriceDeci))}</span>
          </div>
          {listUnitPriceDeci !== undefined && (
            <div className={s.summaryRow} data-testid="member-price">
              <span className={ui.badge.success}>{t.memberPrice}</span>
              <del className={ui.muted}>{t.listPrice(won(listUnitPriceDeci))}</del>
            </div>
          )}
          <div className={s.summaryRow}>
            <span>{t.totalQuantity}</span>
            <span className={s.summaryValue}>{count(quantity)}개</span>
          </div>
          <div className={s.summaryRow}>
            <span>{t.balance}</span>
            <span className={s.summaryValue}>{won(balanceDeci)}</span>
          </div>
          <hr style={{ border: 0, borderTop: '1px solid', opacity: 0.12, width: '100%', margin: '4px 0' }} />
          <div className={s.summaryRow}>
            <span>{t.totalPrice}</span>
            <output className={s.total} aria-live="polite" data-testid="total-price">{won(priceDeci)}</output>
          </div>
          {serviceCheck && <p className={s.warn} role="note">{t.serviceCheck}</p>}
          {balanceProblem && <p className={s.problem} role="alert">{balanceProblem}</p>}
          <button
            type="submit"
            className={`${ui.button.primary} ${ui.block}`}
            disabled={disabled || busy}
            ref={submitRef}
            style={{ minHeight: 52, fontSize: 16 }}
          >
            {busy ? t.submitting : t.submit}
          </button>
        </div>
      </section>
    </aside>
  );
}
