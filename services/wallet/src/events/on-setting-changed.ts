import type { EventOf, SettingChanged } from '@smm/contracts';
import { type Logger, handleOnce } from '@smm/platform';
import { type WalletDeps, consumerName } from '../use-cases/context.ts';

/** Keeps the settings replica current (the top-up fee reads ENABLE_PAYMENT_FEE from it). */
export async function onSettingChanged(deps: WalletDeps, event: EventOf<typeof SettingChanged>, log: Logger): Promise<void> {
  const outcome = await handleOnce(deps.store.connection, consumerName, event, (session) =>
    deps.store.settings.apply(event.data.key, event.data.value, new Date(event.occurredAt), session),
  );
  log.debug({ key: event.data.key, outcome }, 'setting replicated');
}
