// Idle means asleep (issue 42): a server whose keys expire later, with its writes fsynced and
// snapshotted, holds no timer — its active expiry runs when a key falls due, and its snapshot and
// append-only fsync follow writes. Wake-ups are the kernel's count of the server process's voluntary
// context switches (/proc/<pid>/status); a 100 ms expiry tick alone made ~30 in three seconds.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, expect, it } from 'vitest';
import { killAll, redisCli, spawnServer } from './support/cli.ts';

const dirs: string[] = [];
afterAll(() => {
  killAll();
  for (const d of dirs) fs.rmSync(d, { recursive: true, force: true });
});
const sleep = (ms: number): Promise<void> => new Promise((r) => setTimeout(r, ms));
const wakeups = (pid: number): number => Number(/voluntary_ctxt_switches:\s+(\d+)/.exec(fs.readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1]);

it('sleeps while nothing is due, and still expires a key nobody reads at its time', async () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'embedded-redis-idle-'));
  dirs.push(dir);
  const s = await spawnServer(['--port', '0', '--host', '127.0.0.1', '--data-dir', dir, '--appendonly', 'yes']);
  const pid = s.child.pid!;
  for (let i = 0; i < 20; i++) await redisCli(s.port, ['SET', `later:${i}`, 'v', 'EX', '3600']);
  expect(await redisCli(s.port, ['SET', 'soon', 'v', 'PX', '6000'])).toBe('OK');
  // The walk of the expiry table, the fsync and the snapshot of those writes settle first.
  await sleep(2000);
  const before = wakeups(pid);
  await sleep(3000);
  expect(wakeups(pid) - before).toBeLessThan(10);
  // Nobody reads `soon`: DBSIZE counts keys not yet reclaimed, so 20 means active expiry removed it.
  await sleep(2000);
  expect(await redisCli(s.port, ['DBSIZE'])).toBe('20');
  // A key set with a short expiry wakes the sleeping server for it.
  expect(await redisCli(s.port, ['SET', 'sooner', 'v', 'PX', '300'])).toBe('OK');
  await sleep(1500);
  expect(await redisCli(s.port, ['DBSIZE'])).toBe('20');
  await s.stop();
}, 60_000);
