// pymongo (Debian's python3-pymongo, run with /usr/bin/python3): CRUD, an index, a transaction.
import { execFile } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { removeTempDirs, startTestServer } from './helpers.ts';

const script = path.join(path.dirname(fileURLToPath(import.meta.url)), 'pymongo_client.py');
let srv: Awaited<ReturnType<typeof startTestServer>>;

beforeAll(async () => {
  srv = await startTestServer();
});

afterAll(async () => {
  await srv?.close();
  removeTempDirs();
});

describe('pymongo', () => {
  it('does CRUD, a unique index and transactions', { timeout: 60_000 }, async () => {
    // Async exec: the server runs in this process and must keep serving while python runs.
    const { stdout } = await promisify(execFile)('/usr/bin/python3', [script, srv.uri('py')], { encoding: 'utf8', timeout: 50_000 });
    const out = JSON.parse(stdout.trim().split('\n').pop() ?? '{}') as Record<string, unknown>;
    expect(out['dup']).toBe(11000);
    expect(out['docs']).toEqual([
      { sku: 'a', qty: 1, price: 2.5 },
      { sku: 'b', qty: 42 },
      { sku: 'z', qty: 9, new: true },
    ]);
    expect(out['indexes']).toEqual(['_id_', 'sku_unique']);
    expect(out['count']).toBe(2);
    expect(out['fam']).toBe(2);
    // Read outside the open transaction saw the pre-transaction value.
    expect(out['inside_outside_view']).toBe(0);
    // Committed transfer applied, aborted one left no trace.
    expect(out['balances']).toEqual({ x: 70, y: 30 });
  });
});
