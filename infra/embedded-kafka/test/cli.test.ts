import fs from 'node:fs';
import net from 'node:net';
import path from 'node:path';
import { Kafka, logLevel } from 'kafkajs';
import { afterEach, describe, expect, it } from 'vitest';
import { kafkaFor, tempDir } from './helpers/broker.ts';
import { runCli, startCli, type CliBroker } from './helpers/cli.ts';

const running: CliBroker[] = [];
afterEach(() => {
  for (const b of running.splice(0)) if (b.child.exitCode === null) b.child.kill('SIGKILL');
});

async function expectStartFailure(args: string[], message: RegExp): Promise<void> {
  const run = runCli(args);
  const code = await run.exited;
  expect(code).toBe(2);
  const lines = run.stderr().trim().split('\n');
  expect(lines).toHaveLength(1);
  expect(lines[0]).toMatch(message);
  expect(run.stderr()).not.toMatch(/\n\s+at /); // no stack trace
  expect(run.stdout()).not.toContain('"msg":"listening"');
}

describe('broker CLI', () => {
  it('logs one listening line with the port, serves clients and exits 0 on SIGTERM', async () => {
    const b = await startCli(tempDir('ek-cli-'));
    running.push(b);
    const admin = kafkaFor(b.brokers).admin();
    await admin.connect();
    expect(await admin.createTopics({ topics: [{ topic: 'cli-topic' }] })).toBe(true);
    await admin.disconnect();
    b.child.kill('SIGTERM');
    expect(await b.exited).toBe(0);
    const listening = b.stdout().split('\n').filter((l) => l.includes('"msg":"listening"'));
    expect(listening).toHaveLength(1);
    expect(JSON.parse(listening[0] as string)).toMatchObject({ port: b.port });
    expect(b.stdout()).toContain('"msg":"closed"');
  });

  it('still exits 0 on SIGTERM after the process reading its stdout went away', async () => {
    const b = await startCli(tempDir('ek-cli-'));
    running.push(b);
    b.child.stdout?.destroy(); // as when the launcher that spawned it dies
    await new Promise((r) => setTimeout(r, 100));
    b.child.kill('SIGTERM');
    const code = await Promise.race([b.exited, new Promise((r) => setTimeout(() => r('hung'), 8000))]);
    expect(code).toBe(0);
  });

  it('takes SASL users from --users-file, logs no password, and refuses a bad file in one line', async () => {
    const dir = tempDir('ek-cli-');
    const file = path.join(dir, 'users.json');
    fs.writeFileSync(file, JSON.stringify({ users: { order: { password: 'cli-secret-password', produce: ['cli-sasl'], create: ['cli-sasl'] } } }));
    const b = await startCli(path.join(dir, 'data'), ['--users-file', file]);
    running.push(b);
    const listening = b.stdout().split('\n').find((l) => l.includes('"msg":"listening"'));
    expect(JSON.parse(listening as string)).toMatchObject({ sasl: 'PLAIN', users: 1 });
    const producer = new Kafka({ brokers: [b.brokers], logLevel: logLevel.NOTHING, sasl: { mechanism: 'plain', username: 'order', password: 'cli-secret-password' } }).producer();
    await producer.connect();
    await producer.send({ topic: 'cli-sasl', messages: [{ value: 'x' }] });
    await producer.disconnect();
    const wrong = new Kafka({ brokers: [b.brokers], logLevel: logLevel.NOTHING, retry: { retries: 0 }, sasl: { mechanism: 'plain', username: 'order', password: 'guess' } }).producer();
    await expect(wrong.connect()).rejects.toMatchObject({ name: 'KafkaJSSASLAuthenticationError' });
    b.child.kill('SIGTERM');
    expect(await b.exited).toBe(0);
    expect(b.stdout()).toContain('"msg":"SASL authentication failed"');
    expect(b.stdout() + b.stderr()).not.toMatch(/cli-secret-password|guess/);

    await expectStartFailure(['--port', '0', '--data-dir', tempDir('ek-cli-'), '--users-file', path.join(dir, 'missing.json')], /cannot read users file/);
    fs.writeFileSync(file, JSON.stringify({ users: { order: { produce: ['x'] } } }));
    await expectStartFailure(['--port', '0', '--data-dir', tempDir('ek-cli-'), '--users-file', file], /SASL user order: a non-empty password/);
  });

  it('rejects a bad port', async () => {
    await expectStartFailure(['--port', '70000', '--data-dir', tempDir('ek-cli-')], /port/);
    await expectStartFailure(['--port', 'abc', '--data-dir', tempDir('ek-cli-')], /port/);
  });

  it('rejects a port that is already in use', async () => {
    const server = net.createServer();
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', () => r()));
    const port = (server.address() as net.AddressInfo).port;
    try {
      await expectStartFailure(['--port', String(port), '--data-dir', tempDir('ek-cli-')], new RegExp(`port ${port}.*in use`));
    } finally {
      server.close();
    }
  });

  it('rejects a data dir it cannot write', async () => {
    const file = path.join(tempDir('ek-cli-'), 'not-a-dir');
    fs.writeFileSync(file, 'x');
    await expectStartFailure(['--port', '0', '--data-dir', path.join(file, 'kafka')], /data dir .* not writable/);
  });

  it('refuses a data dir another live broker holds', async () => {
    const dir = tempDir('ek-cli-');
    const b = await startCli(dir);
    running.push(b);
    await expectStartFailure(['--port', '0', '--data-dir', dir], /in use by process/);
  });

  it('rejects an unknown flag or a value it cannot parse, on one line', async () => {
    await expectStartFailure(['--port', '0', '--frobnicate'], /frobnicate/);
    await expectStartFailure(['--port', '0', '--retention-bytes', '-1'], /retention-bytes=/);
  });
});
