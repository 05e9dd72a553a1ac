// Where an order's time goes in the saga, from the events themselves: every OrderPlaced,
// PointDebited/Rejected and OrderAccepted/Rejected on the devstack's Kafka, their occurredAt (when the
// service committed) and the Kafka log time (when the outbox relay published). Run after
// bench:orders against the same devstack: KAFKA_BROKERS=127.0.0.1:19092 npm run bench:stages -w @smm/bff
// STAGES_FROM (epoch ms): only the events that occurred from then on (bench:wrk passes its last run's
// start, so the warm-up and the other runs stay out of the figures).
// The devstack's embedded broker wants SASL: the script logs in as its admin (DATA_DIR/kafka-users.json,
// DATA_DIR defaulting to .data as for npm start), or as KAFKA_SASL_USERNAME/KAFKA_SASL_PASSWORD when given.
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { Kafka, type SASLOptions, logLevel } from 'kafkajs';

const usersFile = join(process.env.DATA_DIR ?? '.data', 'kafka-users.json');
const sasl: SASLOptions | undefined = process.env.KAFKA_SASL_USERNAME
  ? { mechanism: 'plain', username: process.env.KAFKA_SASL_USERNAME, password: process.env.KAFKA_SASL_PASSWORD ?? '' }
  : existsSync(usersFile)
    ? { mechanism: 'plain', username: 'admin', password: (JSON.parse(readFileSync(usersFile, 'utf8')) as { users: Record<string, { password: string }> }).users.admin!.password }
    : undefined;
const kafka = new Kafka({ brokers: (process.env.KAFKA_BROKERS ?? '127.0.0.1:19092').split(','), clientId: 'bff-bench-stages', logLevel: logLevel.NOTHING, ...(sasl && { sasl }) });
const admin = kafka.admin(); await admin.connect();
const ends = new Map<string, number>();
for (const t of ['order.events.v1', 'wallet.events.v1']) ends.set(t, (await admin.fetchTopicOffsets(t)).reduce((n, p) => n + Number(p.high), 0));
console.log('topic sizes', [...ends]); await admin.disconnect();
const c = kafka.consumer({ groupId: `bff-bench-stages-${Date.now()}` });
await c.connect(); await c.subscribe({ topics: ['order.events.v1', 'wallet.events.v1'], fromBeginning: true });
const placed = new Map<number, number>(); const debited = new Map<number, number>(); const accepted = new Map<number, number>();
const produced = new Map<string, number[]>();
let seen = 0; const total = [...ends.values()].reduce((a, b) => a + b, 0);
await c.run({ eachMessage: async ({ message }) => {
  seen++;
  const e = JSON.parse(message.value!.toString());
  const at = Date.parse(e.occurredAt); const logAt = Number(message.timestamp);
  if (at < Number(process.env.STAGES_FROM ?? 0)) return;
  (produced.get(e.type) ?? produced.set(e.type, []).get(e.type)!).push(logAt - at);
  if (e.type === 'OrderPlaced') placed.set(e.data.orderId, at);
  if (e.type === 'PointDebited' || e.type === 'PointDebitRejected') debited.set(e.data.orderId, at);
  if (e.type === 'OrderAccepted' || e.type === 'OrderRejected') accepted.set(e.data.orderId, at);
}});
while (seen < total) await new Promise((r) => setTimeout(r, 200));
await c.disconnect();
const q = (xs: number[]) => { xs.sort((a, b) => a - b); return `p50 ${xs[Math.floor(xs.length / 2)]} p90 ${xs[Math.floor(xs.length * 0.9)]} max ${xs[xs.length - 1]} n=${xs.length}`; };
const a: number[] = [], b: number[] = [];
for (const [id, t] of placed) { const d = debited.get(id); const o = accepted.get(id); if (d) a.push(d - t); if (d && o) b.push(o - d); }
console.log('OrderPlaced → wallet debit (occurredAt)', q(a));
console.log('wallet debit → order accepted (occurredAt)', q(b));
for (const [type, xs] of produced) if (['OrderPlaced', 'PointDebited', 'OrderAccepted'].includes(type)) console.log(`${type}: outbox → Kafka log`, q(xs));
const times = [...debited.values()].sort((x, y) => x - y);
let best = 0; for (let i = 0; i < times.length; i++) { let j = i; while (j < times.length && times[j]! - times[i]! < 1000) j++; best = Math.max(best, j - i); }
console.log('wallet debits per second, best 1-s window', best);
