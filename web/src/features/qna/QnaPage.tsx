import { useId, useState } from 'react';
import useSWR from 'swr';
import { ChevronIcon } from '../../layout/icons.tsx';
import { messageOf } from '../../lib/api.ts';
import type { Qna } from '../../lib/types.ts';
import * as ui from '../../ui/ui.css.ts';
import { toggleOpen } from './accordion.ts';
import * as s from './qna.css.ts';

export default function QnaPage() {
  const { data, error } = useSWR<Qna[]>('/service/qnas');
  const [open, setOpen] = useState<number | null>(null);
  const base = useId();
  return (
    <div className={ui.page} style={{ maxWidth: 860 }}>
      <header className={ui.pageHeader}>
        <h1 className={ui.pageTitle}>자주 묻는 질문</h1>
        <p className={ui.pageLead}>주문, 충전, 환불에 대해 자주 묻는 질문을 모았습니다. 더 궁금한 점은 카카오톡 상담으로 문의해 주세요.</p>
      </header>
      {error && <p className={ui.callout}>{messageOf(error, '질문 목록을 불러오지 못했습니다.')}</p>}
      <div className={s.list}>
        {(data ?? []).map((item, i) => {
          const expanded = open === i;
          const buttonId = `${base}-q${i}`;
          const panelId = `${base}-a${i}`;
          return (
            <div key={item.id ?? i} className={s.item} data-open={expanded || undefined}>
              <h2 className={s.heading}>
                <button id={buttonId} type="button" className={s.question} aria-expanded={expanded} aria-controls={panelId} onClick={() => setOpen(toggleOpen(open, i))}>
                  <span className={s.q} aria-hidden="true">Q</span>
                  <span style={{ flex: 1 }}>{item.title}</span>
                  <span className={s.chevron}><ChevronIcon /></span>
                </button>
              </h2>
              <div id={panelId} role="region" aria-labelledby={buttonId} hidden={!expanded} className={s.answer}>
                {item.answer}
              </div>
            </div>
          );
        })}
      </div>
    </div>
  );
}
