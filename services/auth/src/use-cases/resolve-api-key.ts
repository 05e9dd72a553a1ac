import { badRequest, notFound } from '@smm/platform';
import { hashApiKey, looksLikeApiKey } from '../domain/api-key.ts';
import { messages } from '../messages.ts';
import type { AuthServices } from './context.ts';

/** For the public reseller API: which member an `api-key` header belongs to. */
export async function resolveApiKey(services: AuthServices, input: { apiKey?: unknown }) {
  const apiKey = typeof input.apiKey === 'string' ? input.apiKey.trim() : '';
  if (apiKey === '') throw badRequest(messages.apiKeyRequired, [{ field: 'apiKey', message: messages.apiKeyRequired }], 'API_KEY_REQUIRED');
  const member = looksLikeApiKey(apiKey) ? await services.members.findByApiKeyHash(hashApiKey(apiKey)) : null;
  if (!member) throw notFound(messages.apiKeyInvalid, 'API_KEY_INVALID');
  return { userId: member._id, loginId: member.loginId, role: member.role };
}
