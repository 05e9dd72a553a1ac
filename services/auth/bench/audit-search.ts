// The operators' audit log over 200,000 records (issue 12): first page, a filter per index (actor,
// action, target) and a date range, through the real use case on the embedded MongoDB with the
// log's indexes.   npm run bench:audit -w @smm/auth   (BENCH_AUDIT=…)
import { startEmbeddedMongo } from '@smm/embedded-mongo';
import { connectMongo, createLogger } from '@smm/platform';
import { type AuditRecord, auditRecordModel } from '../src/audit/audit-record.model.ts';
import { searchAudit } from '../src/audit/search-audit.ts';
import { MemberRepository } from '../src/store/member-repository.ts';
import type { AuthServices } from '../src/use-cases/context.ts';
import { printMedians } from './probe.ts';

const logger = createLogger({ service: 'auth-bench', level: 'silent' });
const total = Number(process.env.BENCH_AUDIT ?? 200_000);
const actions = ['order.status.change', 'wallet.topup.approve', 'catalog.product.update', 'wallet.balance.adjust'] as const;
const mongo = await startEmbeddedMongo({ port: 0 });
try {
  const connection = await connectMongo(mongo.uri('auth_audit_bench'), logger, 'auth-bench');
  const members = new MemberRepository(connection);
  await members.ensureIndexes();
  await members.model.insertMany(
    Array.from({ length: 10 }, (_, i) => ({ _id: `op-${i}`, loginId: `operator${i}`, loginKey: `operator${i}`, role: i === 0 ? 'admin' : 'staff', provider: 'local', createdAt: new Date() })),
    { lean: true },
  );
  const model = auditRecordModel(connection);
  await model.createCollection();
  await model.syncIndexes();
  const started = Date.now();
  const start = Date.UTC(2026, 0, 1);
  for (let from = 0; from < total; from += 5_000) {
    const docs: AuditRecord[] = [];
    for (let i = from; i < Math.min(from + 5_000, total); i++) {
      docs.push({
        _id: `event-${i}`,
        at: new Date(start + i * 60_000),
        actorId: `op-${i % 10}`,
        actorRole: i % 10 === 0 ? 'admin' : 'staff',
        service: 'order',
        action: actions[i % actions.length]!,
        targetType: 'order',
        targetId: String(i % 50_000),
        before: { status: 0 },
        after: { status: 1 },
        correlationId: `c-${i}`,
      });
    }
    await model.collection.insertMany(docs as never[], { ordered: false });
  }
  console.log(`inserted ${total} audit records in ${Date.now() - started} ms`);
  const services = { members, connection } as unknown as AuthServices;
  const probes: Array<[string, Record<string, string>]> = [
    ['first page, newest first', {}],
    ['page 50, newest first', { page: '50' }],
    ['by operator login id', { actor: 'operator3' }],
    ['by action', { action: 'wallet.balance.adjust' }],
    ['by target id', { target: '12345' }],
    ['one day (KST)', { from: '2026-03-01', to: '2026-03-01' }],
    ['operator + action', { actor: 'operator4', action: 'catalog.product.update' }],
    ['operator + action, no match', { actor: 'operator4', action: 'wallet.topup.approve' }],
  ];
  await printMedians(probes, (query) => searchAudit(services, { pageSize: '20', ...query }));
  await connection.close();
} finally {
  await mongo.close();
}
