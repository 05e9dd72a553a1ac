import { useEffect, useState } from 'react';

/**
 * False until the page has loaded and the browser has gone idle (at most `timeoutMs` after the
 * load event), then true: for work that must not compete with the first paint and the page's own
 * data, such as loading and opening the live stream.
 */
export function useLoadedAndIdle(timeoutMs = 1000): boolean {
  const [ready, setReady] = useState(false);
  useEffect(() => {
    let cancel = () => {};
    const idle = () => {
      const done = () => setReady(true);
      if (typeof window.requestIdleCallback === 'function') {
        const handle = window.requestIdleCallback(done, { timeout: timeoutMs });
        cancel = () => window.cancelIdleCallback(handle);
      } else {
        const handle = setTimeout(done, 0);
        cancel = () => clearTimeout(handle);
      }
    };
    if (document.readyState === 'complete') idle();
    else {
      window.addEventListener('load', idle, { once: true });
      cancel = () => window.removeEventListener('load', idle);
    }
    return () => cancel();
  }, [timeoutMs]);
  return ready;
}
