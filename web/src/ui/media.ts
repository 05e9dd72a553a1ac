import { useSyncExternalStore } from 'react';

/**
 * Whether a CSS media query matches now, following changes (a rotated phone, a resized window).
 * `null` where the browser cannot tell (no matchMedia: tests without a layout engine), so a caller
 * can then render every variant and leave the choice to its CSS.
 */
export function useMediaQuery(query: string): boolean | null {
  return useSyncExternalStore(
    (changed) => {
      if (typeof window.matchMedia !== 'function') return () => undefined;
      const list = window.matchMedia(query);
      list.addEventListener('change', changed);
      return () => list.removeEventListener('change', changed);
    },
    () => (typeof window.matchMedia === 'function' ? window.matchMedia(query).matches : null),
    () => null,
  );
}
