import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';
import { ManagedChild } from '../src/child.ts';

const fixture = join(fileURLToPath(new URL('.', import.meta.url)), 'fixtures', 'slow-start');
let child: ManagedChild | undefined;

afterEach(async () => {
  await child?.stop(2000);
  child = undefined;
});

function start(progressLines: number, stepMs: number): ManagedChild {
  const env = { PATH: process.env.PATH ?? '', PROGRESS_LINES: String(progressLines), STEP_MS: String(stepMs) };
  return new ManagedChild({ name: 'slow', cwd: fixture, script: join(fixture, 'main.mjs'), env }, () => undefined);
}

describe('waiting for a child to become ready', () => {
  it('waits as long as the child reports progress, even past the timeout', async () => {
    // 12 lines 400 ms apart: ready after ~5 s, well past a 2.5 s timeout that no gap reaches.
    child = start(12, 400);
    const started = Date.now();
    const record = await child.waitForRecord((r) => r.msg === 'listening', 2500);
    expect(record.msg).toBe('listening');
    expect(Date.now() - started).toBeGreaterThan(2500);
  }, 30_000);

  it('gives up on a child that stays silent for the timeout', async () => {
    // Silent for 3 s before its first line: a 1.5 s timeout runs out.
    child = start(0, 3000);
    await expect(child.waitForRecord((r) => r.msg === 'listening', 1500)).rejects.toThrow('slow did not become ready: no sign of it for 1500 ms');
  }, 30_000);
});
