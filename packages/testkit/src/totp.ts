import { createHmac } from 'node:crypto';

/**
 * An authenticator app, written apart from auth's own TOTP code (services/auth/src/domain/totp.ts) so the tests
 * compute codes the way a phone would: RFC 4648 base32, RFC 6238 with HMAC-SHA1, 30 s, 6 digits.
 */
export function decodeBase32(text: string): Buffer {
  const bits = [...text.toUpperCase().replace(/=+$/, '')]
    .map((c) => {
      const v = c >= 'A' && c <= 'Z' ? c.charCodeAt(0) - 65 : c >= '2' && c <= '7' ? c.charCodeAt(0) - 24 : -1;
      if (v < 0) throw new Error(`not base32: ${c}`);
      return v.toString(2).padStart(5, '0');
    })
    .join('');
  const bytes: number[] = [];
  for (let i = 0; i + 8 <= bits.length; i += 8) bytes.push(parseInt(bits.slice(i, i + 8), 2));
  return Buffer.from(bytes);
}

export function totpAt(secretBase32: string, atMs: number, digits = 6): string {
  const counter = BigInt(Math.floor(atMs / 30_000));
  const message = Buffer.alloc(8);
  message.writeBigUInt64BE(counter);
  const mac = createHmac('sha1', decodeBase32(secretBase32)).update(message).digest();
  const offset = mac[19]! & 0xf;
  const value = mac.readUInt32BE(offset) & 0x7fffffff;
  return (value % 10 ** digits).toString().padStart(digits, '0');
}
