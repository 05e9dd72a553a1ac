import { Link } from 'react-router-dom';
import * as ui from '../../ui/ui.css.ts';
import * as s from './admin.css.ts';
import { adminText as t } from './messages.ts';

/** A signed-in member who opens /admin: a plain refusal, never a redirect (no loop with /order). */
export function Forbidden() {
  return (
    <main className={s.forbidden}>
      <div className={`${ui.card} ${s.forbiddenCard}`}>
        <p className={s.forbiddenCode} aria-hidden="true">
          403
        </p>
        <h1 className={ui.pageTitle}>{t.forbiddenTitle}</h1>
        <p className={ui.muted}>{t.forbiddenBody}</p>
        <Link to="/order" className={ui.button.primary}>
          {t.forbiddenBack}
        </Link>
      </div>
    </main>
  );
}
