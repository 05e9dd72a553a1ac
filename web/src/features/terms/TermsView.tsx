import { keys, useSettings } from '../../lib/settings.ts';
import * as ui from '../../ui/ui.css.ts';

export type TermsDocument = { title: string; effective: string; articles: Array<{ title: string; body: string[] }> };

export function TermsView({ doc }: { doc: TermsDocument }) {
  const settings = useSettings();
  const company = settings.get(keys.footerCompany);
  return (
    <div className={ui.page} style={{ maxWidth: 860 }}>
      <header className={ui.pageHeader}>
        <h1 className={ui.pageTitle}>{doc.title}</h1>
        {company && <p className={ui.pageLead}>{company}(이하 "회사")</p>}
      </header>
      <article className={ui.card}>
        <nav aria-label="목차" style={{ marginBottom: 24 }}>
          <ol style={{ margin: 0, paddingLeft: 20, columns: 2, columnGap: 32, fontSize: 14 }}>
            {doc.articles.map((a, i) => (
              <li key={a.title} style={{ listStyle: 'none', marginLeft: -20 }}>
                {/* 24 px tall at least: a finger's target on a phone (WCAG 2.5.8). */}
                <a href={`#article-${i}`} className={ui.link} style={{ display: 'inline-block', padding: '4px 0' }}>
                  {a.title}
                </a>
              </li>
            ))}
          </ol>
        </nav>
        {doc.articles.map((a, i) => (
          <section key={a.title} id={`article-${i}`} style={{ marginTop: 24 }}>
            <h2 style={{ fontSize: 17, fontWeight: 800, marginBottom: 8 }}>{a.title}</h2>
            {a.body.map((p) => (
              <p key={p} style={{ lineHeight: 1.85, marginTop: 4 }} className={ui.muted}>{p}</p>
            ))}
          </section>
        ))}
        <p style={{ marginTop: 32, fontWeight: 700 }}>부칙</p>
        <p className={ui.muted}>{doc.effective}</p>
      </article>
    </div>
  );
}
