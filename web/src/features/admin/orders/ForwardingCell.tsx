import * as ui from '../../../ui/ui.css.ts';
import * as s from '../admin.css.ts';
import { adminText as t } from '../messages.ts';
import * as o from './orders.css.ts';
import type { Forwarding } from './types.ts';

const tones: Record<string, keyof typeof ui.badge> = {
  queued: 'neutral',
  claimed: 'neutral',
  sent: 'primary',
  unknown: 'warning',
  review: 'warning',
  accepted: 'success',
  closed: 'neutral',
  failed: 'danger',
  manual: 'neutral',
};

/** The order's forwarding state as a badge, in the review screen's words. */
export function ForwardingState({ forwarding, unavailable }: { forwarding: Forwarding | null; unavailable: boolean }) {
  if (forwarding === null) return <span className={s.sub}>{unavailable ? '—' : t.notForwarded}</span>;
  return (
    <span className={o.stack}>
      <span className={ui.badge[tones[forwarding.state] ?? 'neutral']} style={{ whiteSpace: 'nowrap' }}>
        {t.forwardStates[forwarding.state] ?? forwarding.state}
      </span>
      {/* Narrow widths: the provider column is hidden and its content shown here. */}
      {forwarding.providerId !== null && (
        <span className={o.narrowOnly}>
          <ForwardingCell forwarding={forwarding} />
        </span>
      )}
    </span>
  );
}

/** Provider name over the provider's order id (— when the order went to no provider). */
export function ForwardingCell({ forwarding }: { forwarding: Forwarding | null }) {
  if (forwarding === null || forwarding.providerId === null) return <span className={s.sub}>—</span>;
  return (
    <span className={s.twoLines}>
      <span className={s.clip} title={forwarding.providerName ?? undefined}>
        {forwarding.providerName ?? `#${forwarding.providerId}`}
      </span>
      <span className={s.sub}>{forwarding.providerOrderId === null ? '—' : t.providerOrderNo(forwarding.providerOrderId)}</span>
    </span>
  );
}
