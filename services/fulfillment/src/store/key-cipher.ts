import { createCipheriv, createDecipheriv, createHash, randomBytes } from 'node:crypto';

/** An API key as stored: AES-256-GCM, base64 parts. */
export type SealedKey = { iv: string; tag: string; data: string };

/**
 * Encrypts provider API keys at rest with a key derived from FULFILLMENT_KEY_SECRET. A database
 * dump alone reveals no key; a wrong secret fails to open (GCM's tag), never yields garbage.
 */
export class KeyCipher {
  private readonly key: Buffer;

  constructor(secret: string) {
    this.key = createHash('sha256').update(`fulfillment-provider-keys:${secret}`).digest();
  }

  seal(plain: string): SealedKey {
    const iv = randomBytes(12);
    const cipher = createCipheriv('aes-256-gcm', this.key, iv);
    const data = Buffer.concat([cipher.update(plain, 'utf8'), cipher.final()]);
    return { iv: iv.toString('base64'), tag: cipher.getAuthTag().toString('base64'), data: data.toString('base64') };
  }

  open(sealed: SealedKey): string {
    const decipher = createDecipheriv('aes-256-gcm', this.key, Buffer.from(sealed.iv, 'base64'));
    decipher.setAuthTag(Buffer.from(sealed.tag, 'base64'));
    return Buffer.concat([decipher.update(Buffer.from(sealed.data, 'base64')), decipher.final()]).toString('utf8');
  }
}

/** What admin answers show of a key: its last 4 characters. */
export function maskKey(plain: string): string {
  return plain.length <= 4 ? '****' : `****${plain.slice(-4)}`;
}
