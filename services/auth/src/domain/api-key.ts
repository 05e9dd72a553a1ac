import { createHash, randomBytes } from 'node:crypto';

const KEY_TAG = 'smm_';
/** Characters of the key shown after issue (tag + 8): enough to tell keys apart, useless to guess. */
const PREFIX_LENGTH = KEY_TAG.length + 8;

export type IssuedApiKey = { key: string; hash: string; prefix: string };

/** A new key: 32 random bytes, base64url, behind a visible tag. Only its SHA-256 is stored. */
export function newApiKey(): IssuedApiKey {
  const key = `${KEY_TAG}${randomBytes(32).toString('base64url')}`;
  return { key, hash: hashApiKey(key), prefix: key.slice(0, PREFIX_LENGTH) };
}

/** A high-entropy key needs no slow KDF: SHA-256 makes the stored value useless to a reader. */
export function hashApiKey(key: string): string {
  return createHash('sha256').update(key, 'utf8').digest('hex');
}

/** Whether a string could be a key this service issued (cheap refusal before a lookup). */
export function looksLikeApiKey(value: string): boolean {
  return /^smm_[A-Za-z0-9_-]{43}$/.test(value);
}

/** What a profile shows after issue: the prefix, the rest masked. */
export function maskApiKey(prefix: string): string {
  return `${prefix}${'*'.repeat(12)}`;
}
