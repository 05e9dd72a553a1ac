// Benchmark: what one getMore reply of a big result holds the event loop for (gathering a batch of
// up to BATCH_BYTES and encoding the reply), over bench/stalls.ts's 200,000 small documents, in
// this process, in CPU time (the machine is shared: wall time mostly measures the other processes),
// for 1 MiB, 256 KiB and BATCH_BYTES (the server's, 128 KiB) batches, interleaved. Prints median and max per reply; not a test.
// Run: npm run bench:batches -w @smm/embedded-mongo
import os from 'node:os';
import * as BSON from 'bson';
import { BATCH_BYTES, CursorStore } from '../src/cursors.ts';
import type { Doc } from '../src/values.ts';
const docs = Array.from({ length: 200000 }, (_, i) => ({ _id: new BSON.ObjectId(), n: i, kind: `k${i % 97}`, pad: 'x'.repeat(40) }));
const sizes = [1024 * 1024, 256 * 1024, BATCH_BYTES];
for (let round = 0; round < 3; round++) {
  for (const bytes of sizes) {
    const store = new CursorStore(bytes);
    const r = store.open('a.b', docs, 101, false) as { cursor: { id: BSON.Long } };
    const id = r.cursor.id;
    const times: number[] = [];
    for (;;) {
      const t = process.cpuUsage();
      const m = store.more(id, undefined)!;
      BSON.serialize({ cursor: { nextBatch: m.docs, id: m.id, ns: m.ns }, ok: 1 } as Doc);
      const used = process.cpuUsage(t);
      times.push((used.user + used.system) / 1000);
      if (m.id.isZero()) break;
    }
    times.sort((a, b) => a - b);
    const median = times[times.length >> 1] ?? 0;
    console.log(
      `${String(bytes / 1024).padStart(5)} KiB per batch: ${String(times.length).padStart(4)} replies, CPU per reply median ${median.toFixed(2)} ms, max ${(times.at(-1) ?? 0).toFixed(2)} ms; load ${os.loadavg()[0]!.toFixed(2)}`,
    );
  }
}
