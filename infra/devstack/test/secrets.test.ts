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

  it('makes one service-credential secret, kept across starts, and adds it to a data directory from before', () => {
    dir = mkdtempSync(join(tmpdir(), 'secrets-'));
    const first = DevSecrets.load(dir, {});
    expect(first.serviceAuthSecret.length).toBeGreaterThanOrEqual(32);
    expect(DevSecrets.load(dir, {}).serviceAuthSecret).toBe(first.serviceAuthSecret);
    const file = join(dir, 'secrets.json');
    const { serviceAuthSecret: _dropped, ...older } = JSON.parse(readFileSync(file, 'utf8')) as Record<string, unknown>;
    writeFileSync(file, JSON.stringify(older));
    const upgraded = DevSecrets.load(dir, {});
    expect(upgraded.serviceAuthSecret.length).toBeGreaterThanOrEqual(32);
    expect(upgraded.jwtPublicKey).toBe(first.jwtPublicKey);
    expect(DevSecrets.load(dir, {}).serviceAuthSecret).toBe(upgraded.serviceAuthSecret);
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

  it('keeps a fulfillment key secret, adding one to a file written before it existed', () => {
    dir = mkdtempSync(join(tmpdir(), 'secrets-'));
    const first = DevSecrets.load(dir, {});
    expect(first.fulfillmentKeySecret.length).toBeGreaterThanOrEqual(32);
    expect(DevSecrets.load(dir, {}).fulfillmentKeySecret).toBe(first.fulfillmentKeySecret);
    const file = join(dir, 'secrets.json');
    const { fulfillmentKeySecret: _dropped, ...older } = JSON.parse(readFileSync(file, 'utf8')) as Record<string, unknown>;
    writeFileSync(file, JSON.stringify(older));
    const upgraded = DevSecrets.load(dir, {});
    expect(upgraded.fulfillmentKeySecret.length).toBeGreaterThanOrEqual(32);
    expect(DevSecrets.load(dir, {}).fulfillmentKeySecret).toBe(upgraded.fulfillmentKeySecret);
    expect(upgraded.jwtPublicKey).toBe(first.jwtPublicKey);
  });

  it('refuses a damaged secrets file with a clear message', () => {
    dir = mkdtempSync(join(tmpdir(), 'secrets-'));
    writeFileSync(join(dir, 'secrets.json'), JSON.stringify({ jwtPrivateKey: 'x' }));
    expect(() => DevSecrets.load(dir, {})).toThrow(/secrets\.json is damaged; delete it/);
  });
});
