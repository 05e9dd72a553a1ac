import { useEffect, useState } from 'react';
import * as s from './loading.css.ts';

/**
 * Spec §2: a full-screen loading overlay toggled by events. Anything can show it with
 * `loading.show()` / `loading.hide()` (counted, so overlapping work keeps it up).
 */
const eventName = 'smm:loading';
let pending = 0;

export const loading = {
  show() {
    pending += 1;
    window.dispatchEvent(new CustomEvent(eventName, { detail: pending }));
  },
  hide() {
    pending = Math.max(0, pending - 1);
    window.dispatchEvent(new CustomEvent(eventName, { detail: pending }));
  },
  async around<T>(work: Promise<T>): Promise<T> {
    loading.show();
    try {
      return await work;
    } finally {
      loading.hide();
    }
  },
};

export function LoadingOverlay({ force = false }: { force?: boolean }) {
  const [count, setCount] = useState(pending);
  useEffect(() => {
    const listener = (event: Event) => setCount((event as CustomEvent<number>).detail);
    window.addEventListener(eventName, listener);
    return () => window.removeEventListener(eventName, listener);
  }, []);
  if (!force && count === 0) return null;
  return (
    <div className={s.overlay} role="progressbar" aria-busy="true" aria-label="불러오는 중">
      <div className={s.spinner} />
    </div>
  );
}
