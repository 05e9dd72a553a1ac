import { useId, useState } from 'react';
import { Link } from 'react-router-dom';
import useSWR from 'swr';
import { api, messageOf, post } from '../../../lib/api.ts';
import { type MemberRole, ticketLimits } from '../../../lib/contracts.ts';
import { ConfirmDialog } from '../../../ui/ConfirmDialog.tsx';
import { useToast } from '../../../ui/toast.tsx';
import * as th from '../../../ui/thread.css.ts';
import * as ui from '../../../ui/ui.css.ts';
import { useSubmitOnce } from '../../../ui/use-submit-once.ts';
import * as s from '../admin.css.ts';
import { supportAdminText as t } from './messages.ts';
import type { SavedReply } from './types.ts';

type Draft = { id: number | null; title: string; body: string };
const blank: Draft = { id: null, title: '', body: '' };

/** Saved replies (issue 40): every operator reads them; admins add, edit and delete them (audited). */
export default function SavedRepliesPage({ role }: { role: MemberRole }) {
  const list = useSWR<{ items: SavedReply[] }>('/admin/support/saved-replies');
  const toast = useToast();
  const ids = { title: useId(), body: useId() };
  const [draft, setDraft] = useState<Draft | null>(null);
  const [deleting, setDeleting] = useState<SavedReply | null>(null);
  const [error, setError] = useState<string | null>(null);
  const save = useSubmitOnce();
  const admin = role === 'admin';
  const items = list.data?.items ?? [];

  const submit = () =>
    save.run(async () => {
      if (!draft) return;
      setError(null);
      try {
        const body = { title: draft.title, body: draft.body };
        if (draft.id === null) await post('/admin/support/saved-replies', body);
        else await api(`/admin/support/saved-replies/${draft.id}`, { method: 'PATCH', body });
        toast.success(t.replySaved);
        setDraft(null);
        await list.mutate();
      } catch (caught) {
        setError(messageOf(caught, t.actionFailed));
      }
    });

  const remove = () =>
    save.run(async () => {
      if (!deleting) return;
      try {
        await api(`/admin/support/saved-replies/${deleting.id}`, { method: 'DELETE' });
        toast.success(t.replyDeleted);
        setDeleting(null);
        await list.mutate();
      } catch (caught) {
        toast.error(messageOf(caught, t.actionFailed));
      }
    });

  return (
    <>
      <Link to="/admin/support" className={ui.link}>
        {t.back}
      </Link>
      <header className={ui.pageHeader}>
        <h1 className={ui.pageTitle}>{t.replies}</h1>
        <p className={ui.pageLead}>{t.repliesLead}</p>
      </header>
      {admin && draft === null && (
        <div>
          <button type="button" className={ui.button.primary} onClick={() => setDraft(blank)}>
            {t.addReply}
          </button>
        </div>
      )}
      {admin && draft !== null && (
        <form
          className={`${ui.card} ${ui.stack}`}
          noValidate
          onSubmit={(event) => {
            event.preventDefault();
            void submit();
          }}
        >
          <div className={ui.field}>
            <label htmlFor={ids.title} className={ui.label}>
              {t.replyTitle}
            </label>
            <input id={ids.title} className={ui.input} value={draft.title} maxLength={ticketLimits.savedReplyTitleMax} onChange={(e) => setDraft({ ...draft, title: e.target.value })} />
          </div>
          <div className={ui.field}>
            <label htmlFor={ids.body} className={ui.label}>
              {t.replyBody}
            </label>
            <textarea id={ids.body} className={ui.textarea} rows={5} value={draft.body} maxLength={ticketLimits.bodyMax} onChange={(e) => setDraft({ ...draft, body: e.target.value })} />
          </div>
          {error && (
            <p className={ui.errorText} role="alert">
              {error}
            </p>
          )}
          <div className={s.actions}>
            <button type="submit" className={ui.button.primary} disabled={save.busy}>
              {t.saveReply}
            </button>
            <button type="button" className={ui.button.ghost} onClick={() => setDraft(null)}>
              {t.cancel}
            </button>
          </div>
        </form>
      )}
      {list.data && items.length === 0 && <p className={ui.empty}>{t.repliesEmpty}</p>}
      {list.error && !list.data && <p className={ui.callout} role="alert">{messageOf(list.error, t.actionFailed)}</p>}
      <ul className={ui.stack} style={{ listStyle: 'none', margin: 0, padding: 0 }}>
        {items.map((r) => (
          <li key={r.id} className={ui.card} data-testid={`saved-reply-${r.id}`}>
            <div className={s.cardHead}>
              <strong>{r.title}</strong>
              {admin && (
                <span className={s.actions}>
                  <button type="button" className={`${ui.button.secondary} ${ui.small}`} onClick={() => setDraft({ id: r.id, title: r.title, body: r.body })}>
                    {t.editReply}
                  </button>
                  <button type="button" className={`${ui.button.danger} ${ui.small}`} onClick={() => setDeleting(r)}>
                    {t.deleteReply}
                  </button>
                </span>
              )}
            </div>
            <p className={th.body} style={{ marginTop: 8 }}>
              {r.body}
            </p>
          </li>
        ))}
      </ul>
      <ConfirmDialog
        open={deleting !== null}
        onOpenChange={(open) => !open && setDeleting(null)}
        title={deleting ? t.deleteTitle(deleting.title) : ''}
        description={t.deleteBody}
        confirmLabel={t.deleteReply}
        tone="danger"
        busy={save.busy}
        onConfirm={() => void remove()}
      />
    </>
  );
}
