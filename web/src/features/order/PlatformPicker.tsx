import type { useCatalog } from '../../lib/catalog.ts';
import { PlatformIcon } from '../../ui/platform-icons.tsx';
import * as ui from '../../ui/ui.css.ts';
import { orderText as t } from './messages.ts';
import * as s from './order.css.ts';

/** How many placeholder tiles stand for the platforms while the catalogue loads (the usual count). */
const platformPlaceholders = 7;

type Props = { catalog: ReturnType<typeof useCatalog>; chosen: number | null; onChoose: (platformId: number) => void };

/** The platform tiles (spec §4: choosing one resets the category and product). */
export function PlatformPicker({ catalog, chosen, onChoose }: Props) {
  return (
    <section className={ui.card} aria-labelledby="platform-title">
      <h2 id="platform-title" className={ui.cardTitle}>
        {t.platforms}
      </h2>
      {catalog.error && (
        <p className={s.problem} data-testid="catalog-failed">
          {t.loadFailed}{' '}
          <button type="button" className={`${ui.button.secondary} ${ui.small}`} onClick={() => void catalog.reload()}>{t.reloadCatalog}</button>
        </p>
      )}
      <div className={s.grid} role="group" aria-labelledby="platform-title" aria-busy={catalog.loading || undefined}>
        {catalog.loading &&
          catalog.platforms.length === 0 &&
          Array.from({ length: platformPlaceholders }, (_, i) => (
            <span key={i} className={s.platformSkeleton} aria-hidden="true" data-testid="platform-skeleton">
              <span className={s.skeletonIcon} />
              <span className={s.skeletonText} />
            </span>
          ))}
        {catalog.platforms.map((p) => (
          <button
            key={p.id}
            type="button"
            className={s.platform}
            aria-pressed={chosen === p.id}
            onClick={() => onChoose(p.id)}
            data-platform-id={p.id}
          >
            <span className={s.platformIcon} style={{ background: p.background }}>
              <PlatformIcon id={p.id} background={p.background} />
            </span>
            {p.text}
          </button>
        ))}
      </div>
    </section>
  );
}
