import { generateKeyPairSync, randomBytes } from 'node:crypto';
import { chmodSync, existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { z } from 'zod';

const storedSchema = z.object({
  jwtPrivateKey: z.string().includes('PRIVATE KEY'),
  jwtPublicKey: z.string().includes('PUBLIC KEY'),
  adminBootstrapped: z.boolean(),
});
type Stored = z.infer<typeof storedSchema>;

/**
 * Development secrets made on first start and kept in the data directory (mode 0600), never in
 * the repository: the ES256 key pair auth signs access tokens with (the BFF verifies with the
 * public half), and the first admin password, which exists only in memory: it is printed once,
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
    } else {
      const { privateKey, publicKey } = generateKeyPairSync('ec', { namedCurve: 'P-256' });
      stored = {
        jwtPrivateKey: privateKey.export({ type: 'pkcs8', format: 'pem' }).toString(),
        jwtPublicKey: publicKey.export({ type: 'spki', format: 'pem' }).toString(),
        adminBootstrapped: false,
      };
      writeFileSync(file, JSON.stringify(stored, null, 2), { mode: 0o600 });
      chmodSync(file, 0o600);
    }
    return new DevSecrets(file, stored, env);
  }

  get jwtPrivateKey(): string {
    return this.stored.jwtPrivateKey;
  }

  get jwtPublicKey(): string {
    return this.stored.jwtPublicKey;
  }

  /** Auth is ready, so the admin account exists: later starts stop passing a password. */
  markAdminBootstrapped(): void {
    if (this.stored.adminBootstrapped) return;
    this.stored = { ...this.stored, adminBootstrapped: true };
    writeFileSync(this.file, JSON.stringify(this.stored, null, 2), { mode: 0o600 });
  }
}
