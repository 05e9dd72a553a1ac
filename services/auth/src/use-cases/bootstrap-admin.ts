import { randomUUID } from 'node:crypto';
import { Topics, UserRegistered } from '@smm/contracts';
import { appendToOutbox, inTransaction } from '@smm/platform';
import { loginKey } from '../domain/login-rules.ts';
import { duplicateMemberField } from '../store/member.model.ts';
import type { AuthServices } from './context.ts';

export type BootstrapOutcome = 'created' | 'exists';

/**
 * Creates the first admin from ADMIN_ID / ADMIN_PASSWORD when no account has that id. An existing
 * account is never touched — its password may have been changed since, and a member who holds
 * the id is not promoted.
 */
export async function bootstrapAdmin(services: AuthServices, adminId: string, adminPassword: string): Promise<BootstrapOutcome> {
  const key = loginKey(adminId);
  const existing = await services.members.findByLoginKey(key);
  if (existing) {
    if (existing.role !== 'admin') services.logger.warn({ loginId: adminId }, 'ADMIN_ID belongs to a member account; not promoted');
    else services.logger.info({ loginId: adminId }, 'admin account exists');
    return 'exists';
  }
  const passwordHash = await services.passwords.hash(adminPassword);
  const userId = randomUUID();
  try {
    await inTransaction(services.connection, async (session) => {
      await services.members.insert({ _id: userId, loginId: adminId, loginKey: key, passwordHash, role: 'admin', provider: 'local', createdAt: new Date() }, session);
      const event = UserRegistered.create(
        userId,
        { userId, loginId: adminId, email: null, role: 'admin', provider: 'local', registerWhere: null, referredBy: null },
        { correlationId: `admin-bootstrap-${userId}` },
      );
      await appendToOutbox(services.connection, session, Topics.auth, [event]);
    });
  } catch (error) {
    // Another replica created it at the same moment.
    if (duplicateMemberField(error) === 'loginKey') return 'exists';
    throw error;
  }
  services.kickOutbox();
  services.logger.info({ userId, loginId: adminId }, 'admin account created');
  return 'created';
}
