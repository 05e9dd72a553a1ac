import * as Dialog from '@radix-ui/react-dialog';
import type { ReactNode } from 'react';
import * as d from '../../ui/dialog.css.ts';
import * as ui from '../../ui/ui.css.ts';
import * as s from './fields.css.ts';

/**
 * The console's dialog for a form (Radix, like ui/ConfirmDialog, whose styles it shares): wider,
 * scrolling when tall. Kept here so the members' shared dialog does not grow for the console.
 */
export function FormDialog({ title, description, confirmLabel, closeLabel, busy, onClose, onConfirm, children }: { title: string; description: ReactNode; confirmLabel: string; closeLabel: string; busy: boolean; onClose(): void; onConfirm(): void; children: ReactNode }) {
  return (
    <Dialog.Root open onOpenChange={(open) => !open && onClose()}>
      <Dialog.Portal>
        <Dialog.Overlay className={d.overlay} />
        <Dialog.Content className={`${d.content} ${s.formDialog}`}>
          <Dialog.Title className={d.title}>{title}</Dialog.Title>
          <Dialog.Description className={d.description}>{description}</Dialog.Description>
          {children}
          <div className={`${d.actions} ${s.stickyActions}`}>
            <Dialog.Close asChild>
              <button type="button" className={ui.button.secondary}>
                {closeLabel}
              </button>
            </Dialog.Close>
            <button type="button" className={ui.button.primary} onClick={onConfirm} disabled={busy}>
              {confirmLabel}
            </button>
          </div>
        </Dialog.Content>
      </Dialog.Portal>
    </Dialog.Root>
  );
}
