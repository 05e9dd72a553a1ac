// The CLI contract the devstack launcher relies on: ready line, option errors, clean shutdown.
import fs from 'node:fs';
import net from 'node:net';
import path from 'node:path';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { MongoClient } from 'mongodb';
import { runCli, startCli, stopCli } from './cli.ts';
import type { CliServer } from './cli.ts';
import { removeTempDirs, tempDir } from './helpers.ts';

let server: CliServer | undefined;

afterEach(async () => {
  await stopCli(server, 'SIGKILL');
  server = undefined;
});

afterAll(() => removeTempDirs());

describe('cli', () => {
  it('logs one listening line with the port, serves, and exits 0 on SIGTERM with data flushed', { timeout: 60_000 }, async () => {
    const dataDir = tempDir();
    server = await startCli(['--port', '0', '--host', '127.0.0.1', '--data-dir', dataDir]);
    const listening = server
      .stdout()
      .split('\n')
      .filter((l) => l.includes('"msg":"listening"'));
    expect(listening).toHaveLength(1);
    expect(JSON.parse(listening[0]!)).toMatchObject({ port: server.port, msg: 'listening', heapLimitMb: expect.any(Number) });
    const c = await new MongoClient(`mongodb://127.0.0.1:${server.port}/cli?replicaSet=rs0`).connect();
    await c.db('cli').collection('x').insertOne({ a: 1 });
    await c.close();
    expect(await stopCli(server, 'SIGTERM')).toBe(0);
    // A clean stop leaves everything in a fresh snapshot, so the next start replays no journal.
    expect(fs.statSync(path.join(dataDir, 'journal.log')).size).toBe(0);
    expect(fs.statSync(path.join(dataDir, 'snapshot.bson')).size).toBeGreaterThan(0);
    server = await startCli(['--port', '0', '--host', '127.0.0.1', '--data-dir', dataDir]);
    const again = await new MongoClient(`mongodb://127.0.0.1:${server.port}/cli?replicaSet=rs0`).connect();
    expect(await again.db('cli').collection('x').findOne({}, { projection: { _id: 0 } })).toEqual({ a: 1 });
    await again.close();
    expect(await stopCli(server, 'SIGTERM')).toBe(0);
  });

  it('warns while the data still fits the heap, states its memory in serverStatus, and keeps serving', { timeout: 90_000 }, async () => {
    // Everything lives in the heap: a 400 MB limit, filled with 1 MB documents.
    server = await startCli(['--port', '0', '--host', '127.0.0.1'], 20_000, ['--max-old-space-size=400']);
    const listening = JSON.parse(server.stdout().split('\n').find((l) => l.includes('"msg":"listening"'))!) as { heapLimitMb: number };
    expect(listening.heapLimitMb).toBeGreaterThanOrEqual(400);
    expect(listening.heapLimitMb).toBeLessThan(500);
    const c = await new MongoClient(`mongodb://127.0.0.1:${server.port}/?directConnection=true`).connect();
    try {
      const coll = c.db('cli').collection('big');
      const status = await c.db('admin').command({ serverStatus: 1 });
      expect(status.mem).toMatchObject({ bits: 64, supported: true, heapLimitMb: listening.heapLimitMb });
      expect(status.mem.resident).toBeGreaterThan(status.mem.heapUsedMb);
      expect(server.stdout()).not.toContain('memory nearly full');
      const megabyte = 'x'.repeat(1 << 20);
      let written = 0;
      while (!server.stdout().includes('memory nearly full') && written < 450) {
        await coll.insertOne({ n: written, megabyte: `${written}${megabyte}` });
        written++;
      }
      const warning = server.stdout().split('\n').filter((l) => l.includes('memory nearly full'));
      expect(warning, `no warning after ${written} MB`).toHaveLength(1);
      const record = JSON.parse(warning[0]!) as { level: number; heapUsedMb: number; heapLimitMb: number; percent: number; msg: string };
      expect(record).toMatchObject({ level: 40, heapLimitMb: listening.heapLimitMb });
      expect(record.percent).toBeGreaterThanOrEqual(80);
      expect(record.msg).toContain('EMBEDDED_MONGO_MAX_HEAP_MB');
      // Still there, still serving: the warning comes before the limit, not at it.
      expect(await coll.countDocuments()).toBe(written);
    } finally {
      await c.close();
    }
  });

  it('rejects a bad port with one stderr line and exit code 2', { timeout: 30_000 }, async () => {
    const r = await runCli(['--port', 'abc']).done;
    expect(r.code).toBe(2);
    expect(r.stderr.trim().split('\n')).toHaveLength(1);
    expect(r.stderr).toMatch(/bad port/);
  });

  it('reports a port in use', { timeout: 30_000 }, async () => {
    const blocker = net.createServer();
    await new Promise<void>((r) => blocker.listen(0, '127.0.0.1', r));
    const port = (blocker.address() as net.AddressInfo).port;
    try {
      const r = await runCli(['--port', String(port), '--host', '127.0.0.1']).done;
      expect(r.code).toBe(2);
      expect(r.stderr).toMatch(new RegExp(`port ${port} .*in use`));
      expect(r.stderr).not.toMatch(/\n\s+at /);
    } finally {
      blocker.close();
    }
  });

  it('reports an unwritable data dir', { timeout: 30_000 }, async () => {
    const file = path.join(tempDir(), 'not-a-dir');
    fs.writeFileSync(file, 'x');
    const r = await runCli(['--port', '0', '--data-dir', path.join(file, 'sub')]).done;
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/data dir/);
  });

  it('refuses a data dir already served by a running instance', { timeout: 60_000 }, async () => {
    const dataDir = tempDir();
    server = await startCli(['--port', '0', '--data-dir', dataDir]);
    const r = await runCli(['--port', '0', '--data-dir', dataDir]).done;
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/in use by another embedded-mongo/);
  });
});
