import { ApiKeyRotated, Topics } from '@smm/contracts';
import { appendToOutbox, inTransaction } from '@smm/platform';
import { newApiKey } from '../domain/api-key.ts';
import type { AuthServices, RequestOrigin } from './context.ts';
import { callingMember } from './account.ts';

/**
 * Issues a new API key and shows it once; only its hash is kept, replacing the old one, so the old
 * key stops resolving with this commit.
 */
export async function rotateApiKey(services: AuthServices, userId: string | null, origin: RequestOrigin) {
  const member = await callingMember(services, userId);
  const issued = newApiKey();
  await inTransaction(services.connection, async (session) => {
    await services.members.setApiKey(member._id, issued.hash, issued.prefix, session);
    await appendToOutbox(services.connection, session, Topics.auth, [ApiKeyRotated.create(member._id, { userId: member._id, keyPrefix: issued.prefix }, origin)]);
  });
  services.kickOutbox();
  services.logger.info({ userId: member._id, keyPrefix: issued.prefix, correlationId: origin.correlationId }, 'api key rotated');
  return { apiKey: issued.key, apiKeyPrefix: issued.prefix };
}
