import fs from 'node:fs';
import path from 'node:path';
import { pino } from 'pino';
import { expect, it } from 'vitest';
import { OffsetStore } from '../src/groups/offset-store.ts';
import { tempDir } from './helpers/broker.ts';

const logger = pino({ level: 'silent' });

it('compacts the commit log and reads the same offsets back after reopening', () => {
  const dir = tempDir('ek-offsets-');
  const store = new OffsetStore(dir, logger);
  for (let i = 0; i < 12_000; i++) store.commit('g', [{ topic: 't', partition: i % 3, offset: i, metadata: null }]);
  store.commit('other', [{ topic: 'gone', partition: 0, offset: 5, metadata: 'm' }]);
  store.deleteTopic('gone');
  store.close();
  const file = path.join(dir, 'offsets', 'commits.jsonl');
  expect(fs.readFileSync(file, 'utf8').split('\n').length).toBeLessThan(3000); // rewritten, not 12,002 lines

  const reopened = new OffsetStore(dir, logger);
  expect([0, 1, 2].map((p) => reopened.get('g', 't', p)?.offset)).toEqual([11_997, 11_998, 11_999]);
  expect(reopened.get('other', 'gone', 0)).toBeUndefined();
  reopened.close();
});

it('skips an unreadable line, cuts a torn tail, and keeps appending readable lines', () => {
  const dir = tempDir('ek-offsets-');
  const store = new OffsetStore(dir, logger);
  store.commit('g', [{ topic: 't', partition: 0, offset: 1, metadata: null }]);
  store.close();
  const file = path.join(dir, 'offsets', 'commits.jsonl');
  fs.appendFileSync(file, 'garbage\n{"g":"g","t":"t","p":1,"o":7,"m":null}\n{"g":"g","t":"t","p":0,"o":99');

  const again = new OffsetStore(dir, logger);
  expect(again.get('g', 't', 0)?.offset).toBe(1);
  expect(again.get('g', 't', 1)?.offset).toBe(7);
  again.commit('g', [{ topic: 't', partition: 0, offset: 2, metadata: null }]);
  again.close();

  const third = new OffsetStore(dir, logger);
  expect(third.get('g', 't', 0)?.offset).toBe(2);
  third.close();
});
