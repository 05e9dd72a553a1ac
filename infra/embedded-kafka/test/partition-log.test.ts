import fs from 'node:fs';
import path from 'node:path';
import { pino } from 'pino';
import { expect, it } from 'vitest';
import { PartitionLog } from '../src/log/partition-log.ts';
import { tempDir } from './helpers/broker.ts';
import { encodeBatch } from './helpers/raw-client.ts';

const logger = pino({ level: 'silent' });
const config = { segmentBytes: 64 * 1024 * 1024, retentionBytes: -1, retentionMs: -1 };

it('re-indexes a multi-window segment and drops a last batch whose CRC does not match', () => {
  const dir = path.join(tempDir('ek-log-'), '0');
  const log = new PartitionLog(dir, 't', 0, config, logger);
  const big = 'v'.repeat(100 * 1024);
  for (let i = 0; i < 60; i++) expect(log.append(encodeBatch([`${i}:${big}`, `${i}:b`])).baseOffset).toBe(i * 2);
  log.close();
  const file = path.join(dir, fs.readdirSync(dir)[0] as string);
  expect(fs.statSync(file).size).toBeGreaterThan(4 * 1024 * 1024 + 1); // spans several recovery windows

  // Flip one byte inside the last batch's records: its header still parses, only the CRC tells.
  const fd = fs.openSync(file, 'r+');
  const size = fs.fstatSync(fd).size;
  fs.writeSync(fd, Buffer.from('X'), 0, 1, size - 10);
  fs.closeSync(fd);

  const reopened = new PartitionLog(dir, 't', 0, config, logger);
  expect(reopened.highWatermark).toBe(118);
  const res = reopened.read(116, 1);
  expect(res.error).toBe(0);
  expect('chunks' in res && res.chunks[0]?.includes(Buffer.from('58:b'))).toBe(true);
  expect(reopened.append(encodeBatch(['after'])).baseOffset).toBe(118);
  reopened.close();
});

it('reads the same bytes from its in-memory tail as from the file, across the tail\'s edge', () => {
  const dir = path.join(tempDir('ek-tail-'), '0');
  const log = new PartitionLog(dir, 't', 0, config, logger);
  const sizes: number[] = [];
  for (let i = 0; i < 60; i++) {
    const batch = encodeBatch([`${i}:${'t'.repeat(10_000 + i)}`]);
    sizes.push(batch.length);
    expect(log.append(batch).baseOffset).toBe(i);
  }
  const file = fs.readFileSync(path.join(dir, fs.readdirSync(dir)[0] as string));
  const at = (offset: number) => sizes.slice(0, offset).reduce((a, b) => a + b, 0);
  // One batch, then runs of several, starting in the file's old part, at the tail's edge and inside it.
  for (const [offset, count] of [[0, 1], [10, 5], [30, 20], [40, 20], [59, 1], [0, 60]] as const) {
    const maxBytes = sizes.slice(offset, offset + count).reduce((a, b) => a + b, 0);
    const res = log.read(offset, maxBytes);
    if (!('chunks' in res)) throw new Error('read failed');
    expect(Buffer.concat(res.chunks).equals(file.subarray(at(offset), at(offset) + maxBytes))).toBe(true);
    expect(log.available(offset, maxBytes)).toEqual({ error: 0, bytes: maxBytes });
  }
  expect(log.available(60, 1 << 20)).toEqual({ error: 0, bytes: 0 });
  expect(log.available(61, 1 << 20)).toEqual({ error: 1 }); // OffsetOutOfRange, as read answers
  log.close();
});
