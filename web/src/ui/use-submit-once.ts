import { useCallback, useRef, useState } from 'react';

/**
 * Spec §4/§5: submitting while a change is pending is ignored. The ref answers at once (a double
 * click lands before React re-renders); `busy` drives the disabled button and its label.
 */
export function useSubmitOnce() {
  const pending = useRef(false);
  const [busy, setBusy] = useState(false);
  const isPending = useCallback(() => pending.current, []);
  const run = useCallback(async (work: () => Promise<void>) => {
    if (pending.current) return;
    pending.current = true;
    setBusy(true);
    try {
      await work();
    } finally {
      pending.current = false;
      setBusy(false);
    }
  }, []);
  return { busy, isPending, run };
}
