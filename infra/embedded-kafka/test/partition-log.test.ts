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
