import { generateKeyPairSync, randomBytes } from 'node:crypto';
import { chmodSync, existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { z } from 'zod';

/** 384 random bits: far past the 256 an HS256 key needs. */
const newServiceSecret = () => randomBytes(48).toString('base64url');

const storedSchema = z.object({
  jwtPrivateKey: z.string().includes('PRIVATE KEY'),
  jwtPublicKey: z.string().includes('PUBLIC KEY'),
  // Optional only so a data directory from before service credentials gets one added on load.
  serviceAuthSecret: z.string().min(32).optional(),
  adminBootstrapped: z.boolean(),
  /** Encrypts providers' API keys in fulfillment's database; added to older files on load. */
  fulfillmentKeySecret: z.string().min(32).optional(),
  /** Added later (issue 12): files from before it get one on their next start. */
  depositWebhookSecret: z.string().min(32).optional(),
  /** Seals operators' TOTP secrets in auth's database (issue 41); added to older files on load. */
  twoFactorKeySecret: z.string().min(32).optional(),
  /** The embedded Kafka's SASL/PLAIN passwords, one per principal (issue 39); missing ones are added on load. */
  kafkaPasswords: z.record(z.string(), z.string().min(24)).optional(),
});
type Stored = z.infer<typeof storedSchema>;

/**
 * Development secrets made on first start and kept in the data directory (mode 0600), never in
 * the repository: the ES256 key pair auth signs access tokens with (the BFF verifies with the
 * public half), the HS256 secret of service credentials (SERVICE_AUTH_SECRET, shared by the BFF
 * and every service), and the first admin password, which exists only in memory: it is printed once,
 * handed to auth until an admin account exists, and never written down.
 */
export class DevSecrets {
  readonly adminId: string;
  readonly adminPassword: string | undefined;
  readonly adminPasswordGenerated: boolean;
  private constructor(
    private readonly file: string,
    private stored: Stored,
    env: Record<string, string | undefined>,
  ) {
    this.adminId = env.ADMIN_ID ?? 'admin';
    const given = env.ADMIN_PASSWORD;
    this.adminPasswordGenerated = given === undefined && !stored.adminBootstrapped;
    this.adminPassword = given ?? (stored.adminBootstrapped ? undefined : randomBytes(12).toString('base64url'));
  }

  static load(dataDir: string, env: Record<string, string | undefined>): DevSecrets {
    const file = join(dataDir, 'secrets.json');
    let stored: Stored;
    if (existsSync(file)) {
      const parsed = storedSchema.safeParse(JSON.parse(readFileSync(file, 'utf8')));
      if (!parsed.success) throw new Error(`${file} is damaged; delete it to make new development secrets`);
      stored = parsed.data;
      if (stored.fulfillmentKeySecret === undefined) {
        stored = { ...stored, fulfillmentKeySecret: randomBytes(32).toString('base64url') };
        writeFileSync(file, JSON.stringify(stored, null, 2), { mode: 0o600 });
      }
    } else {
      const { privateKey, publicKey } = generateKeyPairSync('ec', { namedCurve: 'P-256' });
      stored = {
        jwtPrivateKey: privateKey.export({ type: 'pkcs8', format: 'pem' }).toString(),
        jwtPublicKey: publicKey.export({ type: 'spki', format: 'pem' }).toString(),
        serviceAuthSecret: newServiceSecret(),
        adminBootstrapped: false,
        fulfillmentKeySecret: randomBytes(32).toString('base64url'),
        depositWebhookSecret: randomBytes(32).toString('base64url'),
        twoFactorKeySecret: randomBytes(32).toString('base64url'),
      };
      writeFileSync(file, JSON.stringify(stored, null, 2), { mode: 0o600 });
      chmodSync(file, 0o600);
    }
    if (stored.depositWebhookSecret === undefined) {
      stored = { ...stored, depositWebhookSecret: randomBytes(32).toString('base64url') };
      writeFileSync(file, JSON.stringify(stored, null, 2), { mode: 0o600 });
    }
    if (stored.twoFactorKeySecret === undefined) {
      stored = { ...stored, twoFactorKeySecret: randomBytes(32).toString('base64url') };
      writeFileSync(file, JSON.stringify(stored, null, 2), { mode: 0o600 });
    }
    if (stored.serviceAuthSecret === undefined) {
      stored = { ...stored, serviceAuthSecret: newServiceSecret() };
      writeFileSync(file, JSON.stringify(stored, null, 2), { mode: 0o600 });
    }
    return new DevSecrets(file, stored, env);
  }

  /**
   * The embedded Kafka password of a principal (a service, the BFF, or the admin), made on first
   * use and kept in secrets.json like the others.
   */
  kafkaPassword(principal: string): string {
    const known = this.stored.kafkaPasswords?.[principal];
    if (known !== undefined) return known;
    const made = randomBytes(24).toString('base64url');
    this.stored = { ...this.stored, kafkaPasswords: { ...this.stored.kafkaPasswords, [principal]: made } };
    writeFileSync(this.file, JSON.stringify(this.stored, null, 2), { mode: 0o600 });
    return made;
  }

  get jwtPrivateKey(): string {
    return this.stored.jwtPrivateKey;
  }

  get jwtPublicKey(): string {
    return this.stored.jwtPublicKey;
  }

  get fulfillmentKeySecret(): string {
    return this.stored.fulfillmentKeySecret!;
  }

  /** The shared secret the bank-transfer notification service signs deposits with (HMAC-SHA256). */
  get depositWebhookSecret(): string {
    if (this.stored.depositWebhookSecret === undefined) throw new Error('deposit webhook secret missing after load');
    return this.stored.depositWebhookSecret;
  }

  /** Auth's TWO_FACTOR_KEY_SECRET: seals operators' TOTP secrets, keys their recovery codes' HMACs. */
  get twoFactorKeySecret(): string {
    return this.stored.twoFactorKeySecret!;
  }

  get serviceAuthSecret(): string {
    // load() always stores one before constructing.
    return this.stored.serviceAuthSecret!;
  }

  /** Auth is ready, so the admin account exists: later starts stop passing a password. */
  markAdminBootstrapped(): void {
    if (this.stored.adminBootstrapped) return;
    this.stored = { ...this.stored, adminBootstrapped: true };
    writeFileSync(this.file, JSON.stringify(this.stored, null, 2), { mode: 0o600 });
  }
}
