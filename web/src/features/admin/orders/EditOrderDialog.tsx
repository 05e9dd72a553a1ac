import { useId, useState } from 'react';
import { OrderStatus } from '../../../lib/statuses.ts';
import { ConfirmDialog } from '../../../ui/ConfirmDialog.tsx';
import * as ui from '../../../ui/ui.css.ts';
import { adminText as t } from '../messages.ts';
import type { PaidOrder } from './types.ts';

export type OrderPatch = { status?: number; startCount?: number | null; remains?: number };
const statuses = Object.values(OrderStatus.values);

/** Status, start count and remains of one order (order's guarded transition checks the rest). */
export function EditOrderDialog({ order, busy, error, onClose, onSave }: { order: PaidOrder; busy: boolean; error: string | null; onClose(): void; onSave(patch: OrderPatch): void }) {
  const [status, setStatus] = useState(order.status);
  const [start, setStart] = useState(order.startCount === null ? '' : String(order.startCount));
  const [remains, setRemains] = useState(String(order.remains));
  const [problem, setProblem] = useState<string | null>(null);
  const ids = { status: useId(), start: useId(), remains: useId() };
  const shown = problem ?? error;
  return (
    <ConfirmDialog
      open
      onOpenChange={(open) => !open && onClose()}
      title={t.editTitle(order.id)}
      description={`${order.loginId ?? t.unknownMember} · ${order.serviceText}`}
      confirmLabel={t.editSave}
      busy={busy}
      onConfirm={() => {
        const okNumber = (v: string) => /^\d{1,12}$/.test(v.trim());
        if ((start.trim() !== '' && !okNumber(start)) || !okNumber(remains)) return setProblem(t.editInvalid);
        setProblem(null);
        const patch: OrderPatch = {};
        if (status !== order.status) patch.status = status;
        const startValue = start.trim() === '' ? null : Number(start);
        if (startValue !== order.startCount) patch.startCount = startValue;
        if (Number(remains) !== order.remains) patch.remains = Number(remains);
        onSave(patch);
      }}
    >
      <div className={ui.field}>
        <label htmlFor={ids.status} className={ui.label}>
          {t.orderStatusFilter}
        </label>
        <select id={ids.status} className={ui.input} value={status} onChange={(e) => setStatus(Number(e.target.value))}>
          {statuses.map((v) => (
            <option key={v} value={v}>
              {OrderStatus.label(v)}
            </option>
          ))}
        </select>
      </div>
      <div className={ui.field}>
        <label htmlFor={ids.start} className={ui.label}>
          {t.startCount}
        </label>
        <input id={ids.start} className={ui.input} inputMode="numeric" value={start} onChange={(e) => setStart(e.target.value)} />
      </div>
      <div className={ui.field}>
        <label htmlFor={ids.remains} className={ui.label}>
          {t.remains}
        </label>
        <input id={ids.remains} className={ui.input} inputMode="numeric" value={remains} onChange={(e) => setRemains(e.target.value)} />
      </div>
      {shown && (
        <p className={ui.errorText} role="alert">
          {shown}
        </p>
      )}
    </ConfirmDialog>
  );
}
