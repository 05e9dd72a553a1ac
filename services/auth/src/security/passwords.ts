import { randomBytes } from 'node:crypto';
import { hash, verify } from '@node-rs/argon2';
import type { Algorithm } from '@node-rs/argon2';

/**
 * Argon2id with the OWASP-recommended cost (19 MiB, 2 passes, 1 lane). The package declares its
 * algorithm enum as `const enum`, which isolatedModules cannot import, hence the literal.
 */
const options = { algorithm: 2 as Algorithm, memoryCost: 19_456, timeCost: 2, parallelism: 1 };

export class PasswordHasher {
  private dummyHash: Promise<string> | undefined;

  hash(password: string): Promise<string> {
    return hash(password, options);
  }

  async verify(passwordHash: string, password: string): Promise<boolean> {
    try {
      return await verify(passwordHash, password);
    } catch {
      return false;
    }
  }

  /**
   * Spends the same work as a real check when there is no hash to check (unknown id, social-only
   * member), so the answer's timing does not tell whether an id exists.
   */
  async verifyNothing(password: string): Promise<false> {
    this.dummyHash ??= hash(randomBytes(16).toString('hex'), options);
    await this.verify(await this.dummyHash, password);
    return false;
  }

  /** Computes the dummy hash ahead of the first request. */
  async warmUp(): Promise<void> {
    this.dummyHash ??= hash(randomBytes(16).toString('hex'), options);
    await this.dummyHash;
  }
}
