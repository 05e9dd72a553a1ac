import { useState } from 'react';
import useSWR from 'swr';
import { serviceTypeLabels, serviceTypes } from '../../../lib/contracts.ts';
import { count, won } from '../../../lib/format.ts';
import * as ui from '../../../ui/ui.css.ts';
import * as s from '../admin.css.ts';
import * as f from '../fields.css.ts';
import { RecordSection, recordText } from '../RecordSection.tsx';
import { MappingCard } from '../providers/MappingCard.tsx';
import type { Mapping, Provider } from '../providers/types.ts';
import { adminText } from '../messages.ts';
import { catalogueText as t } from './messages.ts';
import type { AdminCategory, AdminPlatform, AdminProduct } from './types.ts';

const common = { common: t.common, moved: t.moved };

/**
 * Issue 12 (catalogue, admin only): platforms → categories of the chosen platform → products of the
 * chosen category, each list in the server's display order, and the chosen product's provider
 * mapping and price rule (owned by fulfillment, edited with the providers screen's card).
 */
export default function CataloguePage() {
  const platforms = useSWR<AdminPlatform[]>('/admin/platforms');
  const categories = useSWR<AdminCategory[]>('/admin/categories');
  const products = useSWR<AdminProduct[]>('/admin/services');
  const mappings = useSWR<Mapping[]>('/admin/fulfillment/mappings');
  const providers = useSWR<Provider[]>('/admin/fulfillment/providers');
  const [platformPick, setPlatformPick] = useState<number | null>(null);
  const [categoryPick, setCategoryPick] = useState<number | null>(null);
  const [mappingFor, setMappingFor] = useState<AdminProduct | null>(null);

  const allPlatforms = platforms.data ?? [];
  const platform = allPlatforms.find((p) => p.id === platformPick) ?? allPlatforms[0];
  const platformCategories = (categories.data ?? []).filter((c) => c.platformId === platform?.id);
  const category = platformCategories.find((c) => c.id === categoryPick) ?? platformCategories[0];
  const categoryProducts = (products.data ?? []).filter((p) => p.categoryId === category?.id);
  const mappingOf = (id: number) => mappings.data?.find((m) => m.productId === id);
  const providerName = (id: number | null) => providers.data?.find((p) => p.id === id)?.name ?? `#${id}`;
  const refreshCatalogue = () => Promise.all([platforms.mutate(), categories.mutate(), products.mutate()]);
  const pickButton = (selected: boolean, label: string, name: string, onClick: () => void) => (
    <button type="button" className={`${selected ? ui.button.soft : ui.button.ghost} ${ui.small}`} aria-pressed={selected} aria-label={`${name} ${label}`} onClick={onClick}>
      {selected ? t.selected : label}
    </button>
  );

  return (
    <>
      <header className={ui.pageHeader}>
        <h1 className={ui.pageTitle}>{t.catalogue}</h1>
        <p className={ui.pageLead}>{t.catalogueLead}</p>
      </header>
      <RecordSection<AdminPlatform>
        title={t.platforms}
        path="/admin/platforms"
        testId="platform"
        rows={allPlatforms}
        loading={platforms.isLoading}
        loadError={platforms.error}
        onChanged={refreshCatalogue}
        rowLabel={(p) => p.text}
        columns={[
          { label: t.columns.id, render: (p) => p.id },
          {
            label: t.columns.name,
            render: (p) => (
              <>
                <span className={f.swatch} style={{ background: p.background }} aria-hidden="true" />
                <strong>{p.text}</strong>
              </>
            ),
          },
          { label: t.columns.colour, render: (p) => <code>{p.background}</code> },
          { label: t.columns.visible, render: (p) => <span className={p.visible ? ui.badge.success : ui.badge.neutral}>{p.visible ? t.shown : t.hidden}</span> },
        ]}
        rowActions={(p) => pickButton(p.id === platform?.id, t.selectPlatform, p.text, () => setPlatformPick(p.id))}
        fields={[
          { name: 'id', label: t.platformFields.id, kind: 'integer', createOnly: true, hint: t.platformIdHint },
          { name: 'text', label: t.platformFields.text, kind: 'text' },
          { name: 'background', label: t.platformFields.background, kind: 'colour' },
          { name: 'visible', label: t.platformFields.visible, kind: 'flag' },
        ]}
        initial={(p) => ({ id: p ? String(p.id) : '', text: p?.text ?? '', background: p?.background ?? '#4F46E5', visible: p?.visible ?? true })}
        text={recordText(t.platformWords, common, (p) => p.text)}
      />
      {platform && (
        <RecordSection<AdminCategory>
          key={`categories-${platform.id}`}
          title={t.categories(platform.text)}
          path="/admin/categories"
          testId="category"
          rows={platformCategories}
          loading={categories.isLoading}
          loadError={categories.error}
          onChanged={refreshCatalogue}
          rowLabel={(c) => c.text}
          columns={[
            { label: t.columns.id, render: (c) => c.id },
            { label: t.columns.name, render: (c) => <strong>{c.text}</strong> },
            { label: t.columns.productCount, render: (c) => (products.data ?? []).filter((p) => p.categoryId === c.id).length },
          ]}
          rowActions={(c) => pickButton(c.id === category?.id, t.selectCategory, c.text, () => setCategoryPick(c.id))}
          fields={[
            { name: 'text', label: t.categoryFields.text, kind: 'text' },
            { name: 'platformId', label: t.categoryFields.platformId, kind: 'select', options: allPlatforms.map((p) => ({ value: String(p.id), label: p.text })) },
          ]}
          initial={(c) => ({ text: c?.text ?? '', platformId: String(c?.platformId ?? platform.id) })}
          text={recordText(t.categoryWords, common, (c) => c.text)}
        />
      )}
      {category && (
        <RecordSection<AdminProduct>
          key={`products-${category.id}`}
          title={t.products(category.text)}
          path="/admin/services"
          testId="product"
          rows={categoryProducts}
          loading={products.isLoading}
          loadError={products.error}
          onChanged={() => Promise.all([refreshCatalogue(), mappings.mutate()])}
          rowLabel={(p) => p.text}
          columns={[
            { label: t.columns.id, render: (p) => p.id },
            {
              label: t.columns.name,
              wrap: true,
              render: (p) => (
                <span className={s.twoLines}>
                  <strong>{p.text}</strong>
                  {!p.visible && <span className={s.sub}>{t.hidden}</span>}
                </span>
              ),
            },
            { label: t.columns.type, render: (p) => serviceTypeLabels[p.type ?? 'default'] },
            { label: t.columns.price, num: true, render: (p) => won(p.unitPriceDeci) },
            { label: t.columns.limits, num: true, render: (p) => `${count(p.min)}~${count(p.max)}` },
            { label: t.columns.auto, render: (p) => (p.enableAuto ? <span className={ui.badge.primary}>{t.yes}</span> : t.no) },
            { label: t.columns.readOnly, render: (p) => (p.isReadOnly ? <span className={ui.badge.warning}>{t.yes}</span> : t.no) },
            { label: t.columns.mapping, render: (p) => <MappingSummary mapping={mappingOf(p.id)} providerName={providerName} /> },
          ]}
          rowActions={(p) => (
            <button type="button" className={`${ui.button.secondary} ${ui.small}`} aria-label={`${p.text} ${t.mappingButton}`} onClick={() => setMappingFor(p)}>
              {t.mappingButton}
            </button>
          )}
          fields={[
            { name: 'text', label: t.productFields.text, kind: 'text' },
            { name: 'categoryId', label: t.productFields.categoryId, kind: 'select', options: (categories.data ?? []).map((c) => ({ value: String(c.id), label: `${allPlatforms.find((p) => p.id === c.platformId)?.text ?? ''} · ${c.text}` })) },
            { name: 'type', label: t.productFields.type, kind: 'select', options: serviceTypes.map((type) => ({ value: type, label: serviceTypeLabels[type] })), hint: t.typeHint },
            { name: 'point', label: t.productFields.point, kind: 'price', hint: t.pointHint },
            { name: 'min', label: t.productFields.min, kind: 'integer' },
            { name: 'max', label: t.productFields.max, kind: 'integer' },
            { name: 'notice', label: t.productFields.notice, kind: 'textarea' },
            { name: 'enableAuto', label: t.productFields.enableAuto, kind: 'flag' },
            { name: 'isReadOnly', label: t.productFields.isReadOnly, kind: 'flag' },
            { name: 'visible', label: t.productFields.visible, kind: 'flag' },
          ]}
          initial={(p) => ({
            text: p?.text ?? '',
            categoryId: String(p?.categoryId ?? category.id),
            point: p ? String(p.point) : '',
            min: p ? String(p.min) : '',
            max: p ? String(p.max) : '',
            notice: p?.notice ?? '',
            type: p?.type ?? 'default',
            enableAuto: p?.enableAuto ?? false,
            isReadOnly: p?.isReadOnly ?? false,
            visible: p?.visible ?? true,
          })}
          text={recordText(t.productWords, common, (p) => p.text)}
        />
      )}
      {mappingFor && mappings.data && (
        <div className={ui.stack}>
          <MappingCard
            key={mappingFor.id}
            providers={providers.data ?? []}
            importedAt={0}
            product={{ id: mappingFor.id, text: mappingFor.text }}
            current={mappingOf(mappingFor.id)}
            onSaved={() => void refreshCatalogue()}
          />
          <span>
            <button type="button" className={ui.button.secondary} onClick={() => setMappingFor(null)}>
              {t.closeMapping}
            </button>
          </span>
        </div>
      )}
    </>
  );
}

/** Provider, its service id, the price rule and the provider's cost, as fulfillment keeps them. */
function MappingSummary({ mapping, providerName }: { mapping: Mapping | undefined; providerName(id: number | null): string }) {
  if (!mapping) return <span className={ui.muted}>{t.mappingNone}</span>;
  if (mapping.mode === 'manual') return <span className={ui.badge.neutral}>{adminText.modeManual}</span>;
  return (
    <span className={s.twoLines} data-testid={`product-mapping-${mapping.productId}`}>
      <span>{t.mappingOf(providerName(mapping.providerId), mapping.providerServiceId ?? '')}</span>
      <span className={s.sub}>
        {adminText.ruleText(mapping.rule, won)}
        {mapping.costDeci !== null && ` · ${t.costOf(won(mapping.costDeci))}`}
      </span>
    </span>
  );
}
