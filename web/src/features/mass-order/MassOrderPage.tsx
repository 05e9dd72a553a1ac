import { useDeferredValue, useId, useMemo, useRef, useState } from 'react';
import type { FormEvent } from 'react';
import { Link } from 'react-router-dom';
import { useAuth } from '../../auth/auth.tsx';
import { ApiError, messageOf, post } from '../../lib/api.ts';
import { useCatalog } from '../../lib/catalog.ts';
import { type CheckedMassLine, type MassOrderAnswer, type MassOrderLineResult, massOrderLineLimit, massOrderMessages } from '../../lib/contracts.ts';
import { count, won } from '../../lib/format.ts';
import { keys, useSettings } from '../../lib/settings.ts';
import type { Service } from '../../lib/types.ts';
import { loading } from '../../ui/loading.tsx';
import { useToast } from '../../ui/toast.tsx';
import { useSubmitOnce } from '../../ui/use-submit-once.ts';
import * as ui from '../../ui/ui.css.ts';
import { massOrderText as t } from './messages.ts';
import * as s from './mass-order.css.ts';
import { type SubmitAttempt, attemptEnded, attemptFor, blockReason, checkPaste, massOrderPayload } from './mass-order-form.ts';

/** The services with their numbers, to copy into the paste. */
function ServiceIds({ services }: { services: readonly Service[] }) {
  return (
    <details className={s.details}>
      <summary className={s.summaryToggle}>{t.findIds}</summary>
      <div className={`${ui.tableWrap} ${s.serviceList}`}>
        <table className={ui.table}>
          <thead>
            <tr>
              <th className={ui.th} scope="col">{t.colId}</th>
              <th className={ui.th} scope="col">{t.colService}</th>
              <th className={`${ui.th} ${ui.num}`} scope="col">{t.colPrice}</th>
              <th className={`${ui.th} ${ui.num}`} scope="col">{t.colRange}</th>
            </tr>
          </thead>
          <tbody>
            {services.filter((x) => !x.isReadOnly).map((x) => (
              <tr key={x.id}>
                <td className={ui.td}>{x.id}</td>
                <td className={ui.tdWrap}>{x.text}</td>
                <td className={`${ui.td} ${ui.num}`}>{won(x.unitPriceDeci)}</td>
                <td className={`${ui.td} ${ui.num}`}>{count(x.min)}~{count(x.max)}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
    </details>
  );
}

function CheckedLine({ line, names }: { line: CheckedMassLine; names: Map<string, string> }) {
  const bad = line.problem !== null;
  return (
    <li className={bad ? s.line.bad : s.line.ok} data-testid="mass-line" data-ok={bad ? 'false' : 'true'}>
      <span className={s.lineNo}>{t.lineNo(line.line)}</span>
      <span className={s.wideCell} title={line.service ? names.get(String(line.service.id)) : undefined}>
        {line.service ? `${String(line.service.id)} · ${names.get(String(line.service.id)) ?? ''}` : line.serviceId || '—'}
      </span>
      <span className={s.wideCell} title={line.link}>{line.link || '—'}</span>
      <span className={s.qtyCell}><span className={s.phoneLabel}>수량 </span>{line.quantity === undefined ? line.amount || '—' : `${count(line.quantity)}개`}</span>
      <span className={s.numCell}>{line.priceDeci === undefined ? <span className={ui.badge.danger}>{t.problem}</span> : won(line.priceDeci)}</span>
      {line.problem && <span className={s.reason} role="note">{line.problem.message}</span>}
    </li>
  );
}

function resultText(result: MassOrderLineResult): { tone: 'success' | 'danger' | 'neutral'; label: string; reason?: string } {
  if (result.status === 'placed') return { tone: 'success', label: t.placed(result.orderId) };
  return { tone: result.status === 'refused' ? 'danger' : 'neutral', label: result.status === 'refused' ? t.refused : t.notPlaced, reason: result.message };
}

function Results({ answer, sent, names, onAgain }: { answer: MassOrderAnswer; sent: CheckedMassLine[]; names: Map<string, string>; onAgain: () => void }) {
  return (
    <section className={ui.card} aria-labelledby="mass-result-title" data-testid="mass-results">
      <h2 id="mass-result-title" className={ui.cardTitle}>{t.resultTitle}</h2>
      <p className={ui.hint} style={{ marginBottom: 12 }} role="status">{t.resultSummary(answer.placed, answer.results.length, won(answer.chargedDeci))}</p>
      <ul className={s.lines}>
        {answer.results.map((r) => {
          const line = sent[r.index];
          const text = resultText(r);
          return (
            <li key={r.index} className={r.status === 'placed' ? s.line.ok : s.line.bad} data-testid="mass-result" data-status={r.status}>
              <span className={s.lineNo}>{t.lineNo(line?.line ?? r.index + 1)}</span>
              <span className={s.wideCell}>{line?.service ? `${String(line.service.id)} · ${names.get(String(line.service.id)) ?? ''}` : ''}</span>
              <span className={s.wideCell} title={line?.link}>{line?.link}</span>
              <span className={s.qtyCell}>{r.status === 'placed' ? won(r.chargeDeci) : '—'}</span>
              <span className={s.numCell}><span className={ui.badge[text.tone]}>{text.label}</span></span>
              {text.reason && <span className={s.reason}>{text.reason}</span>}
            </li>
          );
        })}
      </ul>
      <div className={ui.row} style={{ marginTop: 16 }}>
        <Link to="/order-history" className={ui.button.primary}>{t.toHistory}</Link>
        <button type="button" className={ui.button.secondary} onClick={onAgain}>{t.again}</button>
      </div>
    </section>
  );
}

/**
 * 대량 주문 (issue 40): paste `service id | link | quantity` lines, see each checked with the total,
 * place them. One submit is one Idempotency-Key, kept until an answer settles it: a double press,
 * or a resend after a lost answer, gets the first batch's answer and places no line twice.
 */
export default function MassOrderPage() {
  const auth = useAuth();
  const settings = useSettings();
  const toast = useToast();
  const catalog = useCatalog();
  const submit = useSubmitOnce();
  const pasteId = useId();
  const [text, setText] = useState('');
  const [answer, setAnswer] = useState<{ body: MassOrderAnswer; sent: CheckedMassLine[] } | null>(null);
  const [unknown, setUnknown] = useState(false);
  const attempt = useRef<SubmitAttempt | null>(null);
  const checkedText = useDeferredValue(text);
  const paste = useMemo(() => checkPaste(checkedText, catalog.services), [checkedText, catalog.services]);
  const names = useMemo(() => new Map(catalog.services.map((x) => [String(x.id), x.text])), [catalog.services]);
  const balanceDeci = auth.profile?.pointDeci ?? 0;
  const serviceCheck = settings.enabled(keys.enableServiceCheck);
  const blocked = serviceCheck
    ? t.serviceCheck
    : blockReason(paste, balanceDeci, { fixFirst: t.fixFirst, tooMany: massOrderMessages.tooManyLines, shortBy: (deci) => t.shortBy(won(deci)) });
  const canPlace = paste.okCount > 0 && blocked === null && checkedText === text && !catalog.loading;

  function place(event: FormEvent) {
    event.preventDefault();
    if (!canPlace) return;
    void submit.run(async () => {
      const payload = massOrderPayload(paste);
      attempt.current = attemptFor(attempt.current, payload);
      try {
        const body = await loading.around(post<MassOrderAnswer>('/service/mass-order', payload, { 'idempotency-key': attempt.current.key }));
        attempt.current = null;
        setUnknown(false);
        setAnswer({ body, sent: paste.lines });
        toast.success(t.success(body.placed));
        // The debits reach the balance and the histories through the live channel (lib/live.ts).
      } catch (error) {
        // A definite refusal (4xx) ends the attempt; a lost answer or a 503 keeps its key, so a resend places nothing twice.
        if (error instanceof ApiError && attemptEnded(error.status)) attempt.current = null;
        else setUnknown(true);
        const message = messageOf(error, '');
        toast.error(message ? `${t.failed} ${message}` : t.failed);
        if (error instanceof ApiError && error.code === 'PRICE_CHANGED') void catalog.reloadServices();
      }
    });
  }

  if (answer) {
    return (
      <div className={ui.page}>
        <header className={ui.pageHeader}>
          <h1 className={ui.pageTitle}>{t.title}</h1>
        </header>
        <Results
          answer={answer.body}
          sent={answer.sent}
          names={names}
          onAgain={() => {
            setAnswer(null);
            setText('');
          }}
        />
      </div>
    );
  }

  return (
    <div className={ui.page}>
      <header className={ui.pageHeader}>
        <h1 className={ui.pageTitle}>{t.title}</h1>
        <p className={ui.pageLead}>{t.lead}</p>
      </header>
      <form className={s.layout} onSubmit={place} noValidate aria-label={t.title}>
        <div className={s.column}>
          <section className={ui.card}>
            <div className={ui.field}>
              <label htmlFor={pasteId} className={ui.label}>{t.pasteLabel}</label>
              <textarea
                id={pasteId}
                className={`${ui.textarea} ${s.paste}`}
                value={text}
                onChange={(e) => {
                  setText(e.target.value);
                  setUnknown(false);
                }}
                placeholder={t.placeholder}
                spellCheck={false}
                autoComplete="off"
                aria-describedby={`${pasteId}-hint`}
                disabled={submit.busy}
              />
              <div className={s.countRow}>
                <p className={ui.hint} id={`${pasteId}-hint`}>{t.pasteHint(massOrderLineLimit)}</p>
                <p className={paste.tooMany ? s.warn : ui.hint} data-testid="mass-line-count">{t.lineCount(paste.lines.length, massOrderLineLimit)}</p>
              </div>
              {catalog.loading ? <p className={ui.hint}>{t.loadingCatalog}</p> : <ServiceIds services={catalog.services} />}
            </div>
          </section>
          <section className={ui.card} aria-labelledby="mass-check-title">
            <h2 id="mass-check-title" className={ui.cardTitle}>{t.checkTitle}</h2>
            {paste.lines.length === 0 ? (
              <p className={ui.muted}>{t.checkEmpty}</p>
            ) : (
              <ul className={s.lines} aria-label={t.checkTitle}>
                {paste.lines.map((line) => (
                  <CheckedLine key={line.line} line={line} names={names} />
                ))}
              </ul>
            )}
          </section>
        </div>
        <aside className={s.summary} aria-label={t.summaryTitle}>
          <section className={ui.card}>
            <h2 className={ui.cardTitle}>{t.summaryTitle}</h2>
            <div className={s.totals}>
              <div className={s.totalRow}><span>{t.okLines}</span><span data-testid="mass-ok-count">{count(paste.okCount)}줄</span></div>
              <div className={s.totalRow}><span>{t.badLines}</span><span data-testid="mass-bad-count">{count(paste.badCount)}줄</span></div>
              <div className={s.totalRow}><span>{t.balance}</span><span>{won(balanceDeci)}</span></div>
              <hr style={{ border: 0, borderTop: '1px solid', opacity: 0.12, width: '100%', margin: '4px 0' }} />
              <div className={s.totalRow}>
                <span>{t.total}</span>
                <output className={s.totalBig} aria-live="polite" data-testid="mass-total">{won(paste.totalDeci)}</output>
              </div>
              {blocked && <p className={s.warn} role="alert">{blocked}</p>}
              {unknown && <p className={s.warn} role="alert">{t.unknownNote}</p>}
              <button type="submit" className={`${ui.button.primary} ${ui.block}`} disabled={!canPlace || submit.busy} style={{ minHeight: 52, fontSize: 16 }}>
                {submit.busy ? t.submitting : unknown ? t.retry : t.submit(paste.okCount)}
              </button>
            </div>
          </section>
        </aside>
      </form>
    </div>
  );
}
