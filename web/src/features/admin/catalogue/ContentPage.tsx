import useSWR from 'swr';
import * as ui from '../../../ui/ui.css.ts';
import * as f from '../fields.css.ts';
import { RecordSection, recordText } from '../RecordSection.tsx';
import { catalogueText as t } from './messages.ts';
import type { AdminFaq, AdminNotice, AdminRegisterWhere } from './types.ts';

const common = { common: t.common, moved: t.moved };

/** Issue 12: notices (the top flag highlights one on the order screen), FAQ and register-where options. */
export default function ContentPage() {
  const notices = useSWR<AdminNotice[]>('/admin/notices');
  const faqs = useSWR<AdminFaq[]>('/admin/faqs');
  const registerWhere = useSWR<AdminRegisterWhere[]>('/admin/register-where');
  return (
    <>
      <header className={ui.pageHeader}>
        <h1 className={ui.pageTitle}>{t.content}</h1>
        <p className={ui.pageLead}>{t.contentLead}</p>
      </header>
      <RecordSection<AdminNotice>
        title={t.notices}
        path="/admin/notices"
        testId="notice"
        rows={notices.data ?? []}
        loading={notices.isLoading}
        loadError={notices.error}
        onChanged={() => notices.mutate()}
        rowLabel={(n) => `공지 #${n.id}`}
        columns={[
          { label: t.columns.id, render: (n) => n.id },
          { label: t.columns.content, wrap: true, render: (n) => <span className={f.clamp2}>{n.content}</span> },
          { label: t.columns.top, render: (n) => (n.isTop ? <span className={ui.badge.danger}>{t.top}</span> : t.no) },
        ]}
        fields={[
          { name: 'content', label: t.noticeFields.content, kind: 'textarea' },
          { name: 'isTop', label: t.noticeFields.isTop, kind: 'flag' },
        ]}
        initial={(n) => ({ content: n?.content ?? '', isTop: n?.isTop ?? false })}
        text={recordText(t.noticeWords, common, (n) => String(n.id))}
      />
      <RecordSection<AdminFaq>
        title={t.faqs}
        path="/admin/faqs"
        testId="faq"
        rows={faqs.data ?? []}
        loading={faqs.isLoading}
        loadError={faqs.error}
        onChanged={() => faqs.mutate()}
        rowLabel={(q) => `질문 #${q.id}`}
        columns={[
          { label: t.columns.id, render: (q) => q.id },
          { label: t.columns.title, wrap: true, render: (q) => <strong>{q.title}</strong> },
          { label: t.columns.answer, wrap: true, render: (q) => <span className={f.clamp2}>{q.answer}</span> },
        ]}
        fields={[
          { name: 'title', label: t.faqFields.title, kind: 'text' },
          { name: 'answer', label: t.faqFields.answer, kind: 'textarea' },
        ]}
        initial={(q) => ({ title: q?.title ?? '', answer: q?.answer ?? '' })}
        text={recordText(t.faqWords, common, (q) => String(q.id))}
      />
      <RecordSection<AdminRegisterWhere>
        title={t.registerWhere}
        path="/admin/register-where"
        testId="register-where"
        rows={registerWhere.data ?? []}
        loading={registerWhere.isLoading}
        loadError={registerWhere.error}
        onChanged={() => registerWhere.mutate()}
        rowLabel={(r) => r.text}
        columns={[
          { label: t.columns.id, render: (r) => r.id },
          { label: t.columns.text, render: (r) => <strong>{r.text}</strong> },
        ]}
        fields={[{ name: 'text', label: t.registerWhereFields.text, kind: 'text' }]}
        initial={(r) => ({ text: r?.text ?? '' })}
        text={recordText(t.registerWhereWords, common, (r) => r.text)}
      />
    </>
  );
}
