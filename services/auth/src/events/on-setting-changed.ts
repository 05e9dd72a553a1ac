import type { EventOf } from '@smm/contracts';
import type { SettingChanged } from '@smm/contracts';
import { handleOnce } from '@smm/platform';
import type { Connection } from 'mongoose';
import type { Logger } from 'pino';
import { replicatedSettingKeys } from '../domain/settings.ts';
import type { SettingsRepository } from '../store/setting.model.ts';

export const CONSUMER_GROUP = 'auth';
const wanted: ReadonlySet<string> = new Set(replicatedSettingKeys);

/** Keeps auth's settings replica; keys auth does not use are marked processed and dropped. */
export async function onSettingChanged(
  deps: { connection: Connection; settings: SettingsRepository; logger: Logger },
  event: EventOf<typeof SettingChanged>,
): Promise<void> {
  const outcome = await handleOnce(deps.connection, CONSUMER_GROUP, event, async (session) => {
    if (!wanted.has(event.data.key)) return;
    await deps.settings.apply(event.data.key, event.data.value, new Date(event.occurredAt), session);
  });
  if (outcome === 'applied' && wanted.has(event.data.key)) deps.logger.info({ key: event.data.key, eventId: event.eventId }, 'setting replicated');
}
