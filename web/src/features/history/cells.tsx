import { won, wonFromNumber } from '../../lib/format.ts';
import * as ui from '../../ui/ui.css.ts';

/** Spec §5: a link not starting with https is a profile name; the BFF sends its public address as linkUrl. */
export function LinkText({ link, linkUrl }: { link: string; linkUrl?: string | undefined }) {
  const href = linkUrl ?? (link.startsWith('https://') ? link : undefined);
  return href ? (
    <a href={href} target="_blank" rel="noopener noreferrer" className={`${ui.link} ${ui.ellipsis}`} title={link}>
      {link}
    </a>
  ) : (
    <span className={ui.ellipsis} title={link}>{link}</span>
  );
}

export function money(item: { point: number; pointDeci?: number }): string {
  return typeof item.pointDeci === 'number' ? won(item.pointDeci) : wonFromNumber(item.point);
}

export function shortId(id: string | number): string {
  const text = String(id);
  return text.length > 10 ? text.slice(-8).toUpperCase() : text;
}
