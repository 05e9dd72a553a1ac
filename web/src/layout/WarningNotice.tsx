import { useState } from 'react';
import { useAuth } from '../auth/auth.tsx';
import * as s from './layout.css.ts';
import { shellText as t } from './messages.ts';

const seenKey = 'smm.warning-seen';

/**
 * An operator's warning (issue 12) is shown to the member with its reason: a slim notice under the
 * status bar, in the page's flow, until the member acknowledges it. Acknowledged per reason for the
 * browser session, so a new warning shows again and nothing nags on every page.
 */
export function WarningNotice() {
  const { profile } = useAuth();
  const warning = profile?.restriction?.level === 'warning' ? profile.restriction : null;
  const [seen, setSeen] = useState(() => window.sessionStorage.getItem(seenKey));
  if (!warning || seen === warning.reason) return null;
  return (
    <div className={s.warningNotice} role="status" aria-label={t.warningTitle} data-testid="warning-notice">
      <strong>{t.warningTitle}</strong>
      <span>{warning.reason}</span>
      <button
        type="button"
        className={s.warningAcknowledge}
        onClick={() => {
          window.sessionStorage.setItem(seenKey, warning.reason);
          setSeen(warning.reason);
        }}
      >
        {t.warningAcknowledge}
      </button>
    </div>
  );
}
