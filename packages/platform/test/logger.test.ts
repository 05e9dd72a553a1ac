import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const script = fileURLToPath(new URL('./fixtures/logger-main.ts', import.meta.url));

/** Runs the fixture; each stdout line with the time it arrived. */
function run(end: 'exit' | 'throw' | 'linger'): Promise<{ code: number | null; lines: Array<{ record: Record<string, unknown>; at: number }>; stderr: string; lastWrittenAt: number }> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, ['--import', 'tsx', script], { env: { PATH: process.env.PATH, LOGGER_END: end }, stdio: ['ignore', 'pipe', 'pipe'] });
    const lines: Array<{ record: Record<string, unknown>; at: number }> = [];
    let rest = '';
    let stderr = '';
    let lastWrittenAt = 0;
    child.stdout.on('data', (chunk: Buffer) => {
      const text = rest + chunk.toString();
      const parts = text.split('\n');
      rest = parts.pop() ?? '';
      for (const p of parts) lines.push({ record: JSON.parse(p) as Record<string, unknown>, at: Date.now() });
    });
    child.stderr.on('data', (chunk: Buffer) => {
      stderr += chunk.toString();
      if (stderr.includes('last line logged')) lastWrittenAt ||= Date.now();
    });
    child.on('close', (code) => resolve({ code, lines, stderr, lastWrittenAt }));
  });
}

describe('log lines on stdout', () => {
  it('are written together: 200 lines of a burst in a few write calls, in order, each one whole', async () => {
    const { lines, stderr } = await run('linger');
    const burst = lines.filter((l) => l.record.msg === 'burst line');
    expect(burst.map((l) => l.record.i)).toEqual(Array.from({ length: 200 }, (_, i) => i));
    expect(burst[0]?.record).toMatchObject({ level: 'info', service: 'logger-test' });
    const writes = Number(/burst writes: (\d+)/.exec(stderr)?.[1]);
    expect(writes).toBeGreaterThan(0);
    expect(writes).toBeLessThanOrEqual(20); // ~36 KB of lines: a write per 16 KB and the rest at the flush (a line each would be 200)
  });

  it('are not held back long, and not lost when the process exits or dies of an uncaught error', async () => {
    const lingering = await run('linger');
    const last = lingering.lines.find((l) => l.record.msg === 'last line');
    expect(last).toBeDefined();
    expect(last!.at - lingering.lastWrittenAt).toBeLessThan(900); // the timer wrote it, long before the process ended

    const exited = await run('exit');
    expect(exited.code).toBe(3);
    expect(exited.lines.at(-1)?.record.msg).toBe('last line');

    const thrown = await run('throw');
    expect(thrown.code).toBe(1);
    expect(thrown.stderr).toContain('boom');
    expect(thrown.lines.at(-1)?.record.msg).toBe('last line');
    expect(thrown.lines).toHaveLength(201);
  });
});
