import { chmodSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { kafkaPrincipals } from '@smm/platform/kafka-principals';
import type { DevSecrets } from './secrets.ts';

/** The embedded broker's super user, for an operator's own tools (kcat, scripts); no service uses it. */
export const KAFKA_ADMIN = 'admin';
export const KAFKA_USERS_FILE = 'kafka-users.json';

/** Whether an app has a principal of its own on the embedded broker (every service and the BFF do). */
export function hasKafkaPrincipal(name: string): name is keyof typeof kafkaPrincipals {
  return Object.hasOwn(kafkaPrincipals, name);
}

/** The users and ACLs the embedded broker takes (`--users-file`): kafkaPrincipals plus the admin. */
export function embeddedKafkaUsers(secrets: DevSecrets): Record<string, Record<string, unknown>> {
  const users: Record<string, Record<string, unknown>> = { [KAFKA_ADMIN]: { password: secrets.kafkaPassword(KAFKA_ADMIN), superUser: true } };
  for (const [name, grant] of Object.entries(kafkaPrincipals)) users[name] = { password: secrets.kafkaPassword(name), ...grant };
  return users;
}

/**
 * Writes the users file into the data directory (owner-only, as secrets.json; rewritten each start
 * so a changed table applies) and returns the broker's arguments naming it. Passwords never go on
 * a command line, where `ps` would show them.
 */
export function writeKafkaUsersFile(dataDir: string, secrets: DevSecrets): string[] {
  const file = join(dataDir, KAFKA_USERS_FILE);
  writeFileSync(file, JSON.stringify({ users: embeddedKafkaUsers(secrets) }, null, 2), { mode: 0o600 });
  chmodSync(file, 0o600);
  return ['--users-file', file];
}

/** The client settings of an app on the embedded broker: its own principal (platform's createKafka reads them). */
export function kafkaClientEnv(name: keyof typeof kafkaPrincipals, secrets: DevSecrets): Record<string, string> {
  return { KAFKA_SASL_MECHANISM: 'plain', KAFKA_SASL_USERNAME: name, KAFKA_SASL_PASSWORD: secrets.kafkaPassword(name) };
}
