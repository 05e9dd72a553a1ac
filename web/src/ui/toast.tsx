import { createContext, useCallback, useContext, useMemo, useRef, useState } from 'react';
import type { ReactNode } from 'react';
import * as s from './toast.css.ts';

type Tone = 'success' | 'error' | 'info';
type Toast = { id: number; tone: Tone; text: string };
type ToastApi = { success(text: string): void; error(text: string): void; info(text: string): void };

const ToastContext = createContext<ToastApi | null>(null);

/** Spec §9: toasts close by themselves after 2 seconds. */
export const toastMs = 2000;

export function ToastProvider({ children }: { children: ReactNode }) {
  const [toasts, setToasts] = useState<Toast[]>([]);
  const next = useRef(1);
  const push = useCallback((tone: Tone, text: string) => {
    const id = next.current++;
    // The same words already on screen are not shown twice (issue 40: a suspended member's page
    // had two identical toasts); the one showing stays its 2 seconds.
    setToasts((list) => (list.some((t) => t.tone === tone && t.text === text) ? list : [...list.slice(-2), { id, tone, text }]));
    window.setTimeout(() => setToasts((list) => list.filter((t) => t.id !== id)), toastMs);
  }, []);
  const api = useMemo<ToastApi>(
    () => ({ success: (t) => push('success', t), error: (t) => push('error', t), info: (t) => push('info', t) }),
    [push],
  );
  return (
    <ToastContext.Provider value={api}>
      {children}
      <div className={s.region} role="status" aria-live="polite" aria-label="알림">
        {toasts.map((t) => (
          <div key={t.id} className={s.toast[t.tone]} data-testid="toast">
            <span aria-hidden="true" className={s.dot} />
            {t.text}
          </div>
        ))}
      </div>
    </ToastContext.Provider>
  );
}

export function useToast(): ToastApi {
  const api = useContext(ToastContext);
  if (!api) throw new Error('useToast outside ToastProvider');
  return api;
}
