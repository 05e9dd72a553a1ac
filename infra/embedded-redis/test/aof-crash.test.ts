// SIGKILL under a SET load: the CLI (as the devstack starts it: --data-dir, nothing else) must
// keep every acknowledged write, because the AOF is on by default and written before each
// reply. The same load with --appendonly no (and no snapshot in the window) loses writes, which
// shows the check can fail.
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { killAll, spawnServer } from './support/cli.ts';
import { RawClient, encodeCommand, plain } from './support/raw-client.ts';

const dirs: string[] = [];
afterAll(() => {
  killAll();
  for (const d of dirs) fs.rmSync(d, { recursive: true, force: true });
});

/**
 * Runs `conns` connections that each send SETs of k:<conn>:<n> in pipelined batches and count
 * the +OK replies; `kill` is called after `ms`. Returns the acknowledged count per connection
 * (replies arrive in order, so keys 0..acked-1 of each connection were acknowledged).
 */
async function loadUntilKilled(port: number, conns: number, ms: number, kill: () => void): Promise<number[]> {
  const acked = new Array<number>(conns).fill(0);
  const runs = acked.map(
    (_, ci) =>
      new Promise<void>((resolve) => {
        const sock = net.connect(port, '127.0.0.1');
        let sent = 0;
        let pending = '';
        const batch = (): void => {
          let out = '';
          for (let i = 0; i < 50; i++) out += encodeCommand(['SET', `k:${ci}:${sent++}`, 'v'.repeat(32)]);
          sock.write(out);
        };
        sock.on('connect', batch);
        sock.on('data', (d) => {
          pending += d.toString('latin1');
          let i: number;
          while ((i = pending.indexOf('+OK\r\n')) !== -1) {
            pending = pending.slice(i + 5);
            acked[ci]!++;
          }
          if (acked[ci] === sent) batch();
        });
        sock.on('error', () => undefined);
        sock.on('close', () => resolve());
      }),
  );
  await new Promise((r) => setTimeout(r, ms));
  kill();
  await Promise.all(runs);
  return acked;
}

async function countPresent(port: number, acked: number[]): Promise<number> {
  const c = await RawClient.connect(port);
  let present = 0;
  for (let ci = 0; ci < acked.length; ci++) {
    for (let from = 0; from < acked[ci]!; from += 1000) {
      const keys: string[] = [];
      for (let n = from; n < Math.min(from + 1000, acked[ci]!); n++) keys.push(`k:${ci}:${n}`);
      present += plain(await c.call('EXISTS', ...keys)) as number;
    }
  }
  c.close();
  return present;
}

function tmpDir(): string {
  const d = fs.mkdtempSync(path.join(os.tmpdir(), 'embedded-redis-crash-'));
  dirs.push(d);
  return d;
}

describe('SIGKILL under a SET load', () => {
  it('keeps every acknowledged write with the default append-only file (appendfsync everysec)', async () => {
    const dir = tmpDir();
    // A snapshot interval far beyond the test, so only the AOF can have kept the writes.
    const s = await spawnServer(['--port', '0', '--data-dir', dir, '--snapshot-interval-ms', '600000']);
    const acked = await loadUntilKilled(s.port, 4, 1500, () => s.child.kill('SIGKILL'));
    const total = acked.reduce((a, b) => a + b, 0);
    expect(total).toBeGreaterThan(1000);
    const s2 = await spawnServer(['--port', '0', '--data-dir', dir]);
    const present = await countPresent(s2.port, acked);
    console.info(`AOF everysec: ${total} SETs acknowledged before SIGKILL, ${present} present after restart`);
    expect(present).toBe(total);
    expect(await s2.stop()).toBe(0);
  }, 60000);

  it('loses acknowledged writes with --appendonly no (what the AOF prevents)', async () => {
    const dir = tmpDir();
    const s = await spawnServer(['--port', '0', '--data-dir', dir, '--snapshot-interval-ms', '600000', '--appendonly', 'no']);
    const acked = await loadUntilKilled(s.port, 2, 500, () => s.child.kill('SIGKILL'));
    const total = acked.reduce((a, b) => a + b, 0);
    expect(total).toBeGreaterThan(100);
    const s2 = await spawnServer(['--port', '0', '--data-dir', dir, '--appendonly', 'no']);
    expect(await countPresent(s2.port, acked)).toBe(0);
    expect(await s2.stop()).toBe(0);
  }, 60000);
});
