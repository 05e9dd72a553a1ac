import { useEffect, useState } from 'react';
import type { ReactNode } from 'react';
import { ArrowLeftIcon, ArrowRightIcon } from '../../layout/icons.tsx';
import * as ui from '../../ui/ui.css.ts';
import { landingText as t } from './content.ts';
import * as s from './landing.css.ts';

function usePerView(): number {
  const query = () => (window.matchMedia?.('(max-width: 880px)').matches ? 1 : window.matchMedia?.('(max-width: 1200px)').matches ? 2 : 3);
  const [perView, setPerView] = useState(query);
  useEffect(() => {
    const onResize = () => setPerView(query());
    window.addEventListener('resize', onResize);
    return () => window.removeEventListener('resize', onResize);
  }, []);
  return perView;
}

/** A small accessible carousel: previous/next buttons, dot tabs, arrow keys; wraps around. */
export function Carousel({ title, items, start = 0, label }: { title: string; items: ReactNode[]; start?: number; label: string }) {
  const perView = usePerView();
  const [index, setIndex] = useState(start);
  const last = Math.max(items.length - perView, 0);
  const at = Math.min(index, last);
  const go = (next: number) => setIndex(((next % items.length) + items.length) % items.length);
  const headingId = `${label}-title`;
  return (
    <section
      className={s.section}
      aria-roledescription="carousel"
      aria-labelledby={headingId}
      onKeyDown={(e) => {
        if (e.key === 'ArrowRight') go(index + 1);
        if (e.key === 'ArrowLeft') go(index - 1);
      }}
      data-testid={`${label}-carousel`}
      data-index={index}
    >
      <div className={s.sectionHead}>
        <h2 id={headingId} className={s.sectionTitle}>{title}</h2>
        <div className={s.carouselButtons}>
          <button type="button" className={`${ui.button.secondary} ${ui.small}`} onClick={() => go(index - 1)} aria-label={`${title} ${t.prev}`}>
            <ArrowLeftIcon size={18} />
          </button>
          <button type="button" className={`${ui.button.secondary} ${ui.small}`} onClick={() => go(index + 1)} aria-label={`${title} ${t.next}`}>
            <ArrowRightIcon size={18} />
          </button>
        </div>
      </div>
      <div className={s.viewport}>
        <div className={s.track} style={{ transform: `translateX(-${(100 / perView) * at}%)`, ['--per-view' as string]: perView }}>
          {items.map((item, i) => (
            <div
              key={i}
              className={s.slide}
              role="group"
              aria-roledescription="slide"
              aria-label={t.slide(i + 1, items.length)}
              aria-current={i === index ? 'true' : undefined}
              aria-hidden={i < at || i >= at + perView ? true : undefined}
            >
              {item}
            </div>
          ))}
        </div>
      </div>
      <div className={s.dots}>
        {items.map((_, i) => (
          <button key={i} type="button" className={s.dot} aria-label={t.slide(i + 1, items.length)} aria-current={i === index ? 'true' : undefined} onClick={() => go(i)} />
        ))}
      </div>
    </section>
  );
}
