import * as Dialog from '@radix-ui/react-dialog';
import type { ReactNode } from 'react';
import * as s from './dialog.css.ts';
import * as ui from './ui.css.ts';

export type ConfirmDialogProps = {
  open: boolean;
  onOpenChange(open: boolean): void;
  title: string;
  description: ReactNode;
  confirmLabel: string;
  onConfirm(): void;
  tone?: 'primary' | 'danger';
  busy?: boolean;
  children?: ReactNode;
};

/**
 * A confirmation dialog (Radix: focus trap, Escape closes, focus returns to the trigger). Shown
 * through `ConfirmDialog` (ConfirmDialog.tsx), which loads this chunk once the page is idle.
 */
export default function ConfirmDialogView({
  open,
  onOpenChange,
  title,
  description,
  confirmLabel,
  onConfirm,
  tone = 'primary',
  busy = false,
  children,
}: ConfirmDialogProps) {
  return (
    <Dialog.Root open={open} onOpenChange={onOpenChange}>
      <Dialog.Portal>
        <Dialog.Overlay className={s.overlay} />
        <Dialog.Content className={s.content}>
          <Dialog.Title className={s.title}>{title}</Dialog.Title>
          <Dialog.Description className={s.description}>{description}</Dialog.Description>
          {children}
          <div className={s.actions}>
            <Dialog.Close asChild>
              <button type="button" className={ui.button.secondary}>닫기</button>
            </Dialog.Close>
            <button type="button" className={tone === 'danger' ? ui.button.danger : ui.button.primary} onClick={onConfirm} disabled={busy}>
              {confirmLabel}
            </button>
          </div>
        </Dialog.Content>
      </Dialog.Portal>
    </Dialog.Root>
  );
}
