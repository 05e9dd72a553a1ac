import { Link, useNavigate } from 'react-router-dom';
import { useAuth } from '../../auth/auth.tsx';
import { BoltIcon, ChatIcon, RepeatIcon, ShieldIcon } from '../../layout/icons.tsx';
import * as ui from '../../ui/ui.css.ts';
import { Carousel } from './Carousel.tsx';
import { hashtags, landingText as t, reviews, strengths } from './content.ts';
import * as s from './landing.css.ts';

/** SVG icons, not emoji: machines without an emoji font showed empty boxes. */
const strengthIcons = { bolt: BoltIcon, repeat: RepeatIcon, shield: ShieldIcon, chat: ChatIcon } as const;

export default function LandingPage() {
  const auth = useAuth();
  const navigate = useNavigate();
  return (
    <>
      <section className={s.hero}>
        <div className={s.heroInner}>
          <div>
            <span className={s.eyebrow}>{t.eyebrow}</span>
            <h1 className={s.headline}>{t.headline}</h1>
            <p className={s.sub}>{t.sub}</p>
            <div className={s.actions}>
              {auth.isMember ? (
                <Link to="/order" className={ui.button.primary} style={{ minHeight: 52, padding: '0 28px' }}>주문하러 가기</Link>
              ) : (
                <>
                  <Link to="/login" className={ui.button.primary} style={{ minHeight: 52, padding: '0 28px' }}>{t.login}</Link>
                  <Link to="/register" className={ui.button.soft} style={{ minHeight: 52, padding: '0 24px' }}>{t.register}</Link>
                  <button
                    type="button"
                    className={ui.button.secondary}
                    style={{ minHeight: 52, padding: '0 24px' }}
                    onClick={() => {
                      auth.browseAsGuest();
                      navigate('/order');
                    }}
                  >
                    {t.browse}
                  </button>
                </>
              )}
            </div>
          </div>
          <aside className={s.claim} aria-label={t.claimTitle}>
            <div className={s.claimNumber}>24<span style={{ fontSize: 32 }}>시간</span></div>
            <div className={s.claimTitle}>{t.claimTitle}</div>
            <p className={s.claimBody}>{t.claimBody}</p>
          </aside>
        </div>
      </section>
      <Carousel
        title={t.strengthsTitle}
        label="strengths"
        items={strengths.map((x) => {
          const Icon = strengthIcons[x.icon];
          return (
          <article className={s.strengthCard}>
            <span className={s.strengthIcon} aria-hidden="true"><Icon size={26} /></span>
            <h3 className={s.strengthTitle}>{x.title}</h3>
            <p className={ui.muted}>{x.body}</p>
          </article>
          );
        })}
      />
      <Carousel
        title={t.reviewsTitle}
        label="reviews"
        start={2}
        items={reviews.map((r) => (
          <article className={s.reviewCard}>
            <span className={s.stars} aria-label="별점 5점">★★★★★</span>
            <p>{r.text}</p>
            <div className={s.reviewMeta}>
              <strong>{r.name}</strong>
              <time dateTime={r.date}>{r.date}</time>
            </div>
          </article>
        ))}
      />
      <section className={s.banner} aria-label="해시태그">
        <div className={s.bannerTrack}>
          {[...hashtags, ...hashtags].map((tag, i) => (
            <span key={i} aria-hidden={i >= hashtags.length ? true : undefined}>{tag}</span>
          ))}
        </div>
      </section>
    </>
  );
}
