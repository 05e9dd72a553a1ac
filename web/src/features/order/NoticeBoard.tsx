import { useMemo } from 'react';
import { MegaphoneIcon } from '../../layout/icons.tsx';
import { useNotices } from '../../lib/catalog.ts';
import * as ui from '../../ui/ui.css.ts';
import { orderText as t } from './messages.ts';
import * as s from './order.css.ts';

/** The order screen's notices (spec §2). */
export function NoticeBoard() {
  const { data, error } = useNotices();
  const loadingNotices = !data && !error;
  // Spec §2: notices with isTop first (highlighted), then the rest, each group in server order.
  const notices = useMemo(() => [...(data ?? [])].sort((a, b) => Number(b.isTop) - Number(a.isTop)), [data]);
  return (
    <section className={ui.card} aria-labelledby="notice-title">
      <h2 id="notice-title" className={ui.cardTitle}>
        <MegaphoneIcon /> {t.notices}
      </h2>
      <ul className={s.noticeBox} style={{ listStyle: 'none', margin: 0, padding: 0 }} tabIndex={0} aria-label={t.notices}>
        {loadingNotices && [0, 1].map((i) => <li key={i} className={s.noticeSkeleton} aria-hidden="true" />)}
        {!loadingNotices && notices.length === 0 && <li className={ui.muted}>{t.noNotices}</li>}
        {notices.map((n, i) => (
          <li key={n.id ?? i} className={n.isTop ? s.noticeTop : s.notice} data-top={n.isTop || undefined}>
            {n.content}
          </li>
        ))}
      </ul>
    </section>
  );
}
