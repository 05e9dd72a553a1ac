import { createSign, createVerify } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { DevSecrets } from '../src/secrets.ts';

let dir: string;
afterEach(() => rmSync(dir, { recursive: true, force: true }));

describe('development secrets', () => {
  it('makes a working ES256 key pair once, readable only by the owner', () => {
    dir = mkdtempSync(join(tmpdir(), 'secrets-'));
    const first = DevSecrets.load(dir, {});
    const file = join(dir, 'secrets.json');
    expect(statSync(file).mode & 0o777).toBe(0o600);
    const signature = createSign('SHA256').update('token').sign(first.jwtPrivateKey);
    expect(createVerify('SHA256').update('token').verify(first.jwtPublicKey, signature)).toBe(true);
    expect(DevSecrets.load(dir, {}).jwtPublicKey).toBe(first.jwtPublicKey);
  });

  it('generates the first admin password in memory only, until the admin exists', () => {
    dir = mkdtempSync(join(tmpdir(), 'secrets-'));
    const first = DevSecrets.load(dir, {});
    expect(first.adminId).toBe('admin');
    expect(first.adminPasswordGenerated).toBe(true);
    expect(first.adminPassword).toMatch(/^[A-Za-z0-9_-]{16}$/);
    expect(readFileSync(join(dir, 'secrets.json'), 'utf8')).not.toContain(first.adminPassword!);

    first.markAdminBootstrapped();
    const later = DevSecrets.load(dir, {});
    expect(later.adminPassword).toBeUndefined();
    expect(later.adminPasswordGenerated).toBe(false);
  });

  it('uses ADMIN_ID and ADMIN_PASSWORD from the environment when given', () => {
    dir = mkdtempSync(join(tmpdir(), 'secrets-'));
    const given = DevSecrets.load(dir, { ADMIN_ID: 'operator', ADMIN_PASSWORD: 'from-env-123' });
    expect(given).toMatchObject({ adminId: 'operator', adminPassword: 'from-env-123', adminPasswordGenerated: false });
  });

  it('refuses a damaged secrets file with a clear message', () => {
    dir = mkdtempSync(join(tmpdir(), 'secrets-'));
    writeFileSync(join(dir, 'secrets.json'), JSON.stringify({ jwtPrivateKey: 'x' }));
    expect(() => DevSecrets.load(dir, {})).toThrow(/secrets\.json is damaged; delete it/);
  });
});
