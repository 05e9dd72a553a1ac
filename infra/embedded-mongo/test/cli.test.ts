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
    expect(JSON.parse(listening[0]!)).toMatchObject({ port: server.port, msg: 'listening' });
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
