import { won } from '../../lib/format.ts';
import * as ui from '../../ui/ui.css.ts';

/**
 * Spec §5: a link not starting with https is a profile name; order sends its public address as
 * linkUrl, null when the platform has none (the name is then shown as text).
 */
export function LinkText({ link, linkUrl }: { link: string; linkUrl: string | null }) {
  const href = linkUrl ?? (link.startsWith('https://') ? link : undefined);
  return href ? (
    <a href={href} target="_blank" rel="noopener noreferrer" className={`${ui.link} ${ui.ellipsis}`} title={link}>
      {link}
    </a>
  ) : (
    <span className={ui.ellipsis} title={link}>{link}</span>
  );
}

/** What an order used, from its exact deci-won figure. */
export function money(item: { pointDeci: number }): string {
  return won(item.pointDeci);
}

export function shortId(id: string | number): string {
  const text = String(id);
  return text.length > 10 ? text.slice(-8).toUpperCase() : text;
}

/** What a typed product's order was given (issue 40): the comments, the usernames, the comment author, or that it was a package. */
export function OrderDetailsText({ order }: { order: { serviceType?: string | undefined; details?: { comments?: string[] | undefined; usernames?: string[] | undefined; username?: string | undefined } | null | undefined } }) {
  const d = order.details;
  if (order.serviceType === 'package') return <div className={ui.muted}>패키지 상품</div>;
  if (d?.comments) {
    return (
      <details className={ui.muted} data-testid="order-comments">
        <summary>입력한 댓글 {d.comments.length.toLocaleString('ko-KR')}개</summary>
        <ol style={{ margin: '4px 0 0', paddingLeft: 18 }}>
          {d.comments.map((c, i) => (
            <li key={i} style={{ whiteSpace: 'pre-wrap', overflowWrap: 'anywhere' }}>{c}</li>
          ))}
        </ol>
      </details>
    );
  }
  if (d?.usernames) return <div className={ui.muted} style={{ overflowWrap: 'anywhere' }}>멘션 {d.usernames.length.toLocaleString('ko-KR')}명: {d.usernames.map((u) => `@${u}`).join(', ')}</div>;
  if (d?.username) return <div className={ui.muted}>댓글 작성자: @{d.username}</div>;
  return null;
}
