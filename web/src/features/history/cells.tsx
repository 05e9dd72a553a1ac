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
