import type { EventOf, UserRegistered } from '@smm/contracts';
import { type Logger, handleOnce } from '@smm/platform';
import { openAccount } from '../domain/point-account.ts';
import { type WalletDeps, consumerName } from '../use-cases/context.ts';

/** A new member gets a point account at zero, exactly once however often the event arrives. */
export async function onUserRegistered(deps: WalletDeps, event: EventOf<typeof UserRegistered>, log: Logger): Promise<void> {
  const outcome = await handleOnce(deps.store.connection, consumerName, event, (session) =>
    deps.store.accounts.open(openAccount(event.data.userId, new Date(event.occurredAt)), session),
  );
  log.info({ userId: event.data.userId, outcome }, outcome === 'applied' ? 'point account opened' : 'duplicate UserRegistered ignored');
}
