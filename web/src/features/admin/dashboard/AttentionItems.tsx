import type { AttentionBody } from '@smm/contracts/http';
import { Link } from 'react-router-dom';
import useSWR from 'swr';
import * as ui from '../../../ui/ui.css.ts';
import * as s from '../admin.css.ts';
import { adminText as t } from '../messages.ts';

const badge = { ok: ui.badge.neutral, warn: ui.badge.warning, danger: ui.badge.danger } as const;

/**
 * Issue 41: the rest of what needs a person, as lines of the dashboard's 처리할 일 list — forwards
 * waiting or retrying (with how long the oldest has waited), deposits nobody matched, the latest
 * reconciliation's discrepancies, and (admins) providers whose last call failed or whose balance is
 * low or negative. Each links to where it is settled; a count the BFF could not get shows "확인 불가".
 */
export function AttentionItems() {
  const { data } = useSWR<AttentionBody>('/admin/attention', { refreshInterval: 30_000 });
  if (!data) return null;
  return (
    <>
      {data.items.map((item) => (
        <li key={item.key} className={s.listRow} data-testid={`todo-${item.key}`}>
          <span className={s.twoLines}>
            <Link to={item.href} className={ui.link}>
              {item.label}
            </Link>
            {item.detail && <span className={s.sub}>{item.detail}</span>}
          </span>
          <span className={badge[item.tone]}>{item.count === null ? '확인 불가' : t.count(item.count)}</span>
        </li>
      ))}
    </>
  );
}
