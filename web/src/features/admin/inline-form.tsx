import { useState } from 'react';
import { messageOf } from '../../lib/api.ts';
import * as ui from '../../ui/ui.css.ts';
import { useSubmitOnce } from '../../ui/use-submit-once.ts';
import * as s from './admin.css.ts';
import { adminText as t } from './messages.ts';

/**
 * The state of a console card's one-line form (manual deposit, balance adjustment, restriction):
 * `submit` ignores a second submit while one is pending (useSubmitOnce), clears the last error and
 * shows the server's Korean message when the work fails. Checks before the call set `error` themselves.
 */
export function useInlineForm() {
  const [error, setError] = useState<string | null>(null);
  const once = useSubmitOnce();
  const submit = (work: () => Promise<void>) =>
    once.run(async () => {
      setError(null);
      try {
        await work();
      } catch (caught) {
        setError(messageOf(caught, t.actionFailed));
      }
    });
  return { error, setError, busy: once.busy, submit };
}

/** Under such a form: the error when there is one, else the hint. */
export function FormOutcome({ error, hint }: { error: string | null; hint: string }) {
  return error ? (
    <p className={`${ui.errorText} ${s.formHint}`} role="alert">
      {error}
    </p>
  ) : (
    <p className={`${ui.hint} ${s.formHint}`}>{hint}</p>
  );
}
