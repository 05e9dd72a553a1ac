import type { ImportResultBody } from '@smm/contracts/http';
import { useState } from 'react';
import useSWR, { useSWRConfig } from 'swr';
import { api, messageOf, post } from '../../../lib/api.ts';
import { dateTime } from '../../../lib/format.ts';
import { useToast } from '../../../ui/toast.tsx';
import * as ui from '../../../ui/ui.css.ts';
import * as s from '../admin.css.ts';
import { adminText as t } from '../messages.ts';
import { providerErrorText, requestText as r } from '../requests/messages.ts';
import { MappingCard } from './MappingCard.tsx';
import { NoticeCard, noticesKey } from './NoticeCard.tsx';
import { ProviderForm } from './ProviderForm.tsx';
import type { CheckResult, Provider, ProviderInput } from './types.ts';
import { ConsoleTable } from '../ConsoleTable.tsx';

/** Issue 12 (providers, admin only): upstream panels, their balances, imported services and product mappings. */
export default function ProvidersPage() {
  const toast = useToast();
  const { mutate } = useSWRConfig();
  const list = useSWR<Provider[]>('/admin/fulfillment/providers');
  const [editing, setEditing] = useState<Provider | null>(null);
  const [busyId, setBusyId] = useState<number | null>(null);
  const [importedAt, setImportedAt] = useState(0);
  const providers = list.data ?? [];

  async function save(input: ProviderInput) {
    if (editing) {
      await api(`/admin/fulfillment/providers/${editing.id}`, { method: 'PATCH', body: input });
      toast.success(t.providerUpdated);
      setEditing(null);
    } else {
      await post('/admin/fulfillment/providers', input);
      toast.success(t.providerCreated);
    }
    await list.mutate();
  }

  /** One action on one provider row at a time; its outcome is told in a toast. */
  async function act(provider: Provider, run: () => Promise<void>) {
    if (busyId !== null) return;
    setBusyId(provider.id);
    try {
      await run();
    } catch (error) {
      toast.error(messageOf(error, t.actionFailed));
    } finally {
      setBusyId(null);
      // A check may have raised a low-balance notice.
      await Promise.all([list.mutate(), mutate(noticesKey)]);
    }
  }

  const check = (p: Provider) =>
    act(p, async () => {
      const result = await post<CheckResult>(`/admin/fulfillment/providers/${p.id}/check`);
      if (result.ok) toast.success(t.checkOk(`${result.balance ?? ''} ${result.currency ?? p.currency}`));
      else toast.error(t.checkFailed(providerErrorText(result.error ?? '')));
    });
  const importServices = (p: Provider) =>
    act(p, async () => {
      const result = await post<ImportResultBody>(`/admin/fulfillment/providers/${p.id}/import`);
      toast.success(t.imported(result.imported, result.skipped));
      setImportedAt(Date.now());
    });

  return (
    <>
      <header className={ui.pageHeader}>
        <h1 className={ui.pageTitle}>{t.providers}</h1>
        <p className={ui.pageLead}>{t.providersLead}</p>
      </header>
      <NoticeCard />
      <ProviderForm key={editing?.id ?? 'new'} editing={editing} onSave={save} onCancel={() => setEditing(null)} />
      <ConsoleTable
        label={t.providers}
        list={list}
        rows={providers.length}
        emptyText={t.providersEmpty}
        failedText={t.loadFailed}
        columns={[t.providerColumns.name, t.providerColumns.key, t.providerColumns.currency, { label: t.providerColumns.balance, num: true }, t.providerColumns.checkedAt, t.providerColumns.actions]}
      >
        {providers.map((p) => (
          <tr key={p.id} data-testid={`provider-${p.id}`}>
            <td className={ui.td}>
              <span className={s.twoLines}>
                <strong>{p.name}</strong>
                <span className={`${s.sub} ${s.clip}`} title={p.url}>
                  {p.url}
                </span>
                {p.lastError && <span className={`${s.sub} ${s.warnText}`}>{t.lastError(providerErrorText(p.lastError))}</span>}
              </span>
            </td>
            <td className={ui.td}>
              <code>{p.key}</code>
            </td>
            <td className={ui.td}>{p.currency}</td>
            <td className={`${ui.td} ${ui.num}`}>
              <span className={s.endStack}>
                {/* A failed check is a failure, not "not checked yet" (issue 41). */}
                <strong>{p.balance !== null ? `${p.balance} ${p.currency}` : p.health === 'failing' ? r.balanceFailed : t.balanceUnknown}</strong>
                {p.balanceLow && <span className={ui.badge.danger}>{t.balanceLow}</span>}
              </span>
            </td>
            <td className={ui.td}>
              <span className={s.twoLines}>
                <span className={ui.badge[p.health === 'failing' ? 'danger' : p.health === 'ok' ? 'success' : 'neutral']} style={{ whiteSpace: 'nowrap', alignSelf: 'flex-start' }} data-testid={`provider-health-${p.id}`}>
                  {r.health[p.health ?? 'unchecked']}
                </span>
                {p.lastCallAt ? <span className={s.sub}>{r.lastCall(r.callActions[p.lastCallAction ?? ''] ?? p.lastCallAction ?? '', dateTime(p.lastCallAt))}</span> : <span className={ui.muted}>—</span>}
                {p.health === 'failing' && p.failingSince && <span className={`${s.sub} ${s.warnText}`}>{r.failingSince(dateTime(p.failingSince))}</span>}
              </span>
            </td>
            <td className={ui.td}>
              <span className={s.actions}>
                <button type="button" className={`${ui.button.secondary} ${ui.small}`} disabled={busyId !== null} onClick={() => void check(p)}>
                  {t.check}
                </button>
                <button type="button" className={`${ui.button.secondary} ${ui.small}`} disabled={busyId !== null} onClick={() => void importServices(p)}>
                  {t.importServices}
                </button>
                <button type="button" className={`${ui.button.ghost} ${ui.small}`} onClick={() => setEditing(p)}>
                  {t.edit}
                </button>
              </span>
            </td>
          </tr>
        ))}
      </ConsoleTable>
      <MappingCard providers={providers} importedAt={importedAt} />
    </>
  );
}
