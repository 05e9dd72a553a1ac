// Page 1 of a member with 50,000 paid orders: how long the history query takes.
//   npm run bench -w @smm/order          (or: cd services/order && npm run bench)
import { startEmbeddedMongo } from '@smm/embedded-mongo';
import { connectMongo, createLogger } from '@smm/platform';
import { seedHistory, timePages } from '../test/history-seed.ts';
import { createStore } from '../src/store/store.ts';

const logger = createLogger({ service: 'order-bench', level: 'silent' });
const rows = Number(process.env.BENCH_ROWS ?? 50_000);
const mongo = await startEmbeddedMongo({ port: 0 });
try {
  const connection = await connectMongo(process.env.BENCH_URL ?? mongo.uri('order_bench'), logger, 'order-bench');
  const store = await createStore(connection);
  const started = Date.now();
  await seedHistory(store, 'heavy-member', rows);
  console.log(`inserted ${rows} orders of one member (+ ${Math.ceil(rows / 9)} of others, interleaved) in ${Date.now() - started} ms`);
  for (const line of await timePages(store, 'heavy-member')) console.log(line.text);
  await connection.close();
} finally {
  await mongo.close();
}
