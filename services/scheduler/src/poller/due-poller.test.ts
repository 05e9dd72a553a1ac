import { afterEach, describe, expect, it } from 'vitest';
import { createLogger } from '@smm/platform';
import { type DueSource, DuePoller } from './due-poller.ts';

const logger = createLogger({ service: 'poller-test', level: 'silent' });
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
let poller: DuePoller | undefined;

afterEach(async () => {
  await poller?.stop();
});

/** A source with due times in memory; `fire` records when passes happened. */
function memorySource(dueTimes: number[], options: { failFirst?: number } = {}) {
  const passes: number[] = [];
  let failures = options.failFirst ?? 0;
  const source: DueSource = {
    name: 'memory',
    async fire(now) {
      passes.push(now.getTime());
      if (failures > 0) {
        failures -= 1;
        throw new Error('database unavailable');
      }
      const due = dueTimes.filter((t) => t <= now.getTime());
      dueTimes.splice(0, dueTimes.length, ...dueTimes.filter((t) => t > now.getTime()));
      return { fired: due.length, waiting: 0 };
    },
    async earliestDue() {
      return dueTimes.length === 0 ? null : new Date(Math.min(...dueTimes));
    },
  };
  return { source, passes, dueTimes };
}

describe('DuePoller', () => {
  it('sleeps until the soonest due time rather than the whole poll interval', async () => {
    const start = Date.now();
    const { source, dueTimes } = memorySource([start + 150, start + 300]);
    let kicks = 0;
    poller = new DuePoller({ sources: [source], logger, pollMs: 60_000, onFired: () => (kicks += 1) });
    poller.start();
    await sleep(450);
    expect(dueTimes).toEqual([]);
    expect(poller.fired).toBe(2);
    expect(kicks).toBe(2);
  });

  it('wakes early for an item stored due sooner than its next pass', async () => {
    const { source, dueTimes } = memorySource([]);
    poller = new DuePoller({ sources: [source], logger, pollMs: 60_000, onFired: () => undefined });
    poller.start();
    await sleep(50);
    const at = Date.now() + 100;
    dueTimes.push(at);
    poller.wake(new Date(at));
    await sleep(300);
    expect(poller.fired).toBe(1);
  });

  it('retries after a failed pass and makes no pass once stopped', async () => {
    const { source, passes } = memorySource([Date.now()], { failFirst: 1 });
    poller = new DuePoller({ sources: [source], logger, pollMs: 50, onFired: () => undefined });
    poller.start();
    await sleep(300);
    expect(poller.fired).toBe(1);
    await poller.stop();
    const count = passes.length;
    poller.wake();
    await sleep(200);
    expect(passes.length).toBe(count);
  });
});
