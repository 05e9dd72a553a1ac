import { type ChildProcess, spawn } from 'node:child_process';
import { generateKeyPairSync } from 'node:crypto';
import { cpSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Infra, startInfra } from '@smm/testkit';
import { bundlePackage } from '../src/bundle.ts';

// What the image runs: `node dist/main.js`, compiled here and copied out of the repository so no
// node_modules, tsx or TypeScript source can be reached from it.
const root = fileURLToPath(new URL('../../../', import.meta.url));
const outside = mkdtempSync(join(tmpdir(), 'smm-dist-'));
const children: ChildProcess[] = [];
let infra: Infra;

beforeAll(async () => {
  infra = await startInfra();
});

afterAll(async () => {
  for (const child of children) child.kill('SIGKILL');
  await infra?.stop();
  rmSync(outside, { recursive: true, force: true });
});

async function compileAndCopy(dir: string): Promise<{ main: string; manifest: { dependencies: Record<string, string> } }> {
  const { outfile } = await bundlePackage(join(root, dir));
  const target = join(outside, dir, 'dist');
  cpSync(join(root, dir, 'dist'), target, { recursive: true });
  expect(outfile.endsWith('main.js')).toBe(true);
  return { main: join(target, 'main.js'), manifest: JSON.parse(readFileSync(join(target, 'package.json'), 'utf8')) };
}

/** Starts the compiled file as the Dockerfile's entrypoint does; resolves with the port it logs. */
function runCompiled(main: string, env: Record<string, string>): Promise<{ port: number; child: ChildProcess; output: () => string }> {
  const child = spawn(process.execPath, ['--enable-source-maps', main], {
    cwd: outside,
    env: { PATH: process.env.PATH ?? '', HOST: '127.0.0.1', PORT: '0', LOG_LEVEL: 'info', SERVICE_AUTH_SECRET: 'compiled-start-test-secret-0123456789', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  children.push(child);
  let out = '';
  child.stdout!.on('data', (chunk: Buffer) => (out += chunk.toString()));
  child.stderr!.on('data', (chunk: Buffer) => (out += chunk.toString()));
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`no "listening" line within 60 s: ${out}`)), 60_000);
    child.once('exit', (code) => reject(new Error(`exited ${String(code)} before listening: ${out}`)));
    child.stdout!.on('data', () => {
      const line = out.split('\n').find((l) => l.includes('"msg":"listening"'));
      if (!line) return;
      clearTimeout(timer);
      resolve({ port: (JSON.parse(line) as { port: number }).port, child, output: () => out });
    });
  });
}

describe('the compiled build (dist/main.js) outside the repository', () => {
  it('the BFF starts with only its bundle and answers /healthz', async () => {
    const { main, manifest } = await compileAndCopy('bff');
    expect(manifest.dependencies).toEqual({});
    const { publicKey } = generateKeyPairSync('ec', { namedCurve: 'P-256' });
    const unreachable = 'http://127.0.0.1:9';
    const bff = await runCompiled(main, {
      REDIS_URL: infra.redis.url,
      JWT_PUBLIC_KEY: publicKey.export({ type: 'spki', format: 'pem' }).toString(),
      AUTH_SERVICE_URL: unreachable,
      CATALOG_SERVICE_URL: unreachable,
      WALLET_SERVICE_URL: unreachable,
      METRICS_TOKEN: 'compiled-start-metrics-token',
    });
    const res = await fetch(`http://127.0.0.1:${bff.port}/healthz`);
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ status: 'ok' });
    expect((await fetch(`http://127.0.0.1:${bff.port}/metrics`)).status).toBe(404); // not on the public port without the token
    const metrics = await (await fetch(`http://127.0.0.1:${bff.port}/metrics`, { headers: { authorization: 'Bearer compiled-start-metrics-token' } })).text();
    expect(metrics).toContain('http_request_duration_seconds_count{method="GET",route="/healthz",status="200"} 1');
    bff.child.kill('SIGTERM');
  });

  it('the wallet service starts on embedded Kafka and MongoDB, is ready, and stops on SIGTERM with 0', async () => {
    const { main } = await compileAndCopy('services/wallet');
    const wallet = await runCompiled(main, { KAFKA_BROKERS: infra.kafka.brokers, MONGO_URL: infra.mongo.uri('wallet_dist') });
    const base = `http://127.0.0.1:${wallet.port}`;
    expect((await fetch(`${base}/healthz`)).status).toBe(200);
    expect((await fetch(`${base}/readyz`)).status).toBe(200);
    const metrics = await (await fetch(`${base}/metrics`)).text();
    expect(metrics).toMatch(/^outbox_oldest_unsent_age_seconds\{database="wallet_dist"\} \d/m);
    const exited = new Promise<number | null>((resolve) => wallet.child.once('exit', resolve));
    wallet.child.kill('SIGTERM');
    expect({ code: await exited, output: wallet.output().slice(-1500) }).toEqual({ code: 0, output: expect.any(String) });
  });

  it('refuses half-given Kafka SASL credentials with one line naming them and exit code 2', async () => {
    const main = join(outside, 'services/wallet/dist/main.js');
    const child = spawn(process.execPath, [main], {
      cwd: outside,
      env: { PATH: process.env.PATH ?? '', PORT: '0', KAFKA_BROKERS: infra.kafka.brokers, MONGO_URL: infra.mongo.uri('wallet_sasl'), SERVICE_AUTH_SECRET: 'compiled-start-test-secret-0123456789', KAFKA_SASL_USERNAME: 'smm' },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    children.push(child);
    let stderr = '';
    child.stderr!.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    const code = await new Promise<number | null>((resolve) => child.once('exit', resolve));
    expect(code).toBe(2);
    expect(stderr.trim().split('\n')).toEqual(['Invalid configuration: KAFKA_SASL_USERNAME and KAFKA_SASL_PASSWORD must be set together']);
  });

  it('auth keeps its native password hasher outside the bundle and names it for the image to install', async () => {
    const { manifest } = await compileAndCopy('services/auth');
    expect(Object.keys(manifest.dependencies)).toEqual(['@node-rs/argon2']);
    expect(manifest.dependencies['@node-rs/argon2']).toMatch(/^\d+\.\d+\.\d+$/);
  });
});
