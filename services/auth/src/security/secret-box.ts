import { createCipheriv, createDecipheriv, createHash, createHmac, randomBytes } from 'node:crypto';

/** A secret as stored: AES-256-GCM, base64 parts (fulfillment seals providers' API keys the same way). */
export type SealedSecret = { iv: string; tag: string; data: string };

/**
 * Keeps operators' second-factor secrets out of the clear (issue 41): TOTP secrets are sealed with
 * AES-256-GCM under a key derived from TWO_FACTOR_KEY_SECRET, and recovery codes are kept only as
 * an HMAC under a second derived key. A database dump alone yields neither a secret nor a code; a
 * wrong key fails to open (GCM's tag), never yields a wrong secret.
 */
export class SecretBox {
  private readonly sealKey: Buffer;
  private readonly macKey: Buffer;

  constructor(secret: string) {
    this.sealKey = createHash('sha256').update(`auth-two-factor-seal:${secret}`).digest();
    this.macKey = createHash('sha256').update(`auth-two-factor-recovery:${secret}`).digest();
  }

  seal(plain: Buffer): SealedSecret {
    const iv = randomBytes(12);
    const cipher = createCipheriv('aes-256-gcm', this.sealKey, iv);
    const data = Buffer.concat([cipher.update(plain), cipher.final()]);
    return { iv: iv.toString('base64'), tag: cipher.getAuthTag().toString('base64'), data: data.toString('base64') };
  }

  open(sealed: SealedSecret): Buffer {
    const decipher = createDecipheriv('aes-256-gcm', this.sealKey, Buffer.from(sealed.iv, 'base64'));
    decipher.setAuthTag(Buffer.from(sealed.tag, 'base64'));
    return Buffer.concat([decipher.update(Buffer.from(sealed.data, 'base64')), decipher.final()]);
  }

  /** A recovery code's stored form (the code is already normalised). */
  recoveryHash(code: string): string {
    return createHmac('sha256', this.macKey).update(code).digest('base64url');
  }
}
