import { Suspense, lazy, useEffect, useState } from 'react';
import { useLoadedAndIdle } from '../lib/idle.ts';
import type { ConfirmDialogProps } from './ConfirmDialogView.tsx';

const load = () => import('./ConfirmDialogView.tsx');
const View = lazy(load);
let fetched = false;

/**
 * A confirmation dialog (ConfirmDialogView.tsx: Radix, focus trap, Escape closes, focus returns to
 * the trigger). Its code (Radix's dialog, ~13 KB compressed) is not among what a page needs to
 * show: it is fetched once the page has loaded and gone idle, and rendered from the first time the
 * dialog opens (a click before then waits for the chunk).
 */
export function ConfirmDialog(props: ConfirmDialogProps) {
  const idle = useLoadedAndIdle();
  const [opened, setOpened] = useState(props.open);
  if (props.open && !opened) setOpened(true);
  useEffect(() => {
    if (!idle || fetched) return;
    fetched = true;
    load().catch(() => {
      fetched = false;
    });
  }, [idle]);
  if (!opened) return null;
  return (
    <Suspense fallback={null}>
      <View {...props} />
    </Suspense>
  );
}
