import * as Dialog from '@radix-ui/react-dialog';
import { useId, useState } from 'react';
import { dateTime, won } from '../../../lib/format.ts';
import { receiptTypeLabels } from '../../../lib/statuses.ts';
import { ConfirmDialog } from '../../../ui/ConfirmDialog.tsx';
import * as d from '../../../ui/dialog.css.ts';
import * as ui from '../../../ui/ui.css.ts';
import * as s from '../admin.css.ts';
import { adminText as t } from '../messages.ts';
import type { AdminTopUp } from './types.ts';

const who = (row: AdminTopUp) => row.loginId ?? t.unknownMember;

export function ApproveDialog({ row, busy, onClose, onConfirm }: { row: AdminTopUp; busy: boolean; onClose(): void; onConfirm(): void }) {
  return (
    <ConfirmDialog
      open
      onOpenChange={(open) => !open && onClose()}
      title={t.approveTitle}
      description={t.approveBody(who(row), won(row.transferDeci), won(row.pointDeci).replace('원', 'P'))}
      confirmLabel={t.approveConfirm}
      onConfirm={onConfirm}
      busy={busy}
    />
  );
}

export function RejectDialog({ row, busy, onClose, onConfirm }: { row: AdminTopUp; busy: boolean; onClose(): void; onConfirm(reason: string): void }) {
  const [reason, setReason] = useState('');
  const [error, setError] = useState<string | null>(null);
  const field = useId();
  return (
    <ConfirmDialog
      open
      onOpenChange={(open) => !open && onClose()}
      title={t.rejectTitle}
      description={`${who(row)} · ${row.name} · ${won(row.transferDeci)} — ${t.rejectBody}`}
      confirmLabel={t.rejectConfirm}
      tone="danger"
      busy={busy}
      onConfirm={() => {
        if (reason.trim() === '') {
          setError(t.rejectReasonRequired);
          return;
        }
        onConfirm(reason.trim());
      }}
    >
      <div className={ui.field}>
        <label htmlFor={field} className={ui.label}>
          {t.rejectReason}
        </label>
        <textarea
          id={field}
          className={ui.textarea}
          maxLength={200}
          value={reason}
          placeholder={t.rejectReasonPlaceholder}
          aria-invalid={error !== null}
          aria-describedby={error ? `${field}-error` : undefined}
          onChange={(e) => {
            setReason(e.target.value);
            setError(null);
          }}
        />
        {error && (
          <p id={`${field}-error`} className={ui.errorText} role="alert">
            {error}
          </p>
        )}
      </div>
    </ConfirmDialog>
  );
}

/** The request's receipt details (tax invoice / cash receipt) and the "issued" marking. */
export function DetailDialog({ row, busy, onClose, onMarkIssued }: { row: AdminTopUp; busy: boolean; onClose(): void; onMarkIssued(): void }) {
  const v = row.feeValue;
  const entries: Array<[string, string | undefined]> =
    row.receiptType === 'fee'
      ? [
          [t.company, v.company],
          [t.businessNumber, v.businessNumber],
          [t.leader, v.leader],
          [t.phone, v.phone],
          [t.email, v.email],
        ]
      : row.receiptType === 'cash'
        ? [[t.phone, v.phone]]
        : [];
  const canMark = row.receiptType !== 'none' && row.status === 1 && row.receiptIssuedAt === null;
  return (
    <Dialog.Root open onOpenChange={(open) => !open && onClose()}>
      <Dialog.Portal>
        <Dialog.Overlay className={d.overlay} />
        <Dialog.Content className={d.content}>
          <Dialog.Title className={d.title}>{t.detailTitle(row.id)}</Dialog.Title>
          <Dialog.Description className={d.description}>
            {who(row)} · {row.name} · {won(row.transferDeci)}
          </Dialog.Description>
          <h3 className={ui.label}>
            {t.detailReceipt}: {receiptTypeLabels[row.receiptType]}
          </h3>
          {entries.length === 0 ? (
            <p className={ui.muted}>{t.noReceipt}</p>
          ) : (
            <dl className={s.details}>
              {entries.map(([key, value]) => (
                <div key={key} style={{ display: 'contents' }}>
                  <dt className={s.detailKey}>{key}</dt>
                  <dd className={s.detailValue}>{value ?? ''}</dd>
                </div>
              ))}
            </dl>
          )}
          {row.rejectReason && (
            <dl className={s.details}>
              <dt className={s.detailKey}>{t.rejectReasonLabel}</dt>
              <dd className={s.detailValue}>{row.rejectReason}</dd>
            </dl>
          )}
          {row.receiptIssuedAt && <p className={ui.badge.success}>{t.issuedAt(dateTime(row.receiptIssuedAt))}</p>}
          <div className={d.actions}>
            <Dialog.Close asChild>
              <button type="button" className={ui.button.secondary}>
                {t.close}
              </button>
            </Dialog.Close>
            {canMark && (
              <button type="button" className={ui.button.primary} onClick={onMarkIssued} disabled={busy}>
                {t.markIssued}
              </button>
            )}
          </div>
        </Dialog.Content>
      </Dialog.Portal>
    </Dialog.Root>
  );
}
