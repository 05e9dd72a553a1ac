// The operators' member list over 100,000 members (issue 12): first page (newest first) and a
// filtered page (login-id prefix, e-mail prefix, phone prefix), through the real use case on the
// embedded MongoDB with auth's indexes.   npm run bench:members -w @smm/auth   (BENCH_MEMBERS=…)
import { startEmbeddedMongo } from '@smm/embedded-mongo';
import { connectMongo, createLogger } from '@smm/platform';
import { MemberRepository } from '../src/store/member-repository.ts';
import type { MemberDoc } from '../src/store/member.model.ts';
import type { AuthServices } from '../src/use-cases/context.ts';
import { searchMembers } from '../src/use-cases/member-search.ts';
import { printMedians } from './probe.ts';

const logger = createLogger({ service: 'auth-bench', level: 'silent' });
const total = Number(process.env.BENCH_MEMBERS ?? 100_000);
const mongo = await startEmbeddedMongo({ port: 0 });
try {
  const connection = await connectMongo(mongo.uri('auth_bench'), logger, 'auth-bench');
  const members = new MemberRepository(connection);
  await members.ensureIndexes();
  const started = Date.now();
  const batch = 5_000;
  for (let start = 0; start < total; start += batch) {
    const docs: MemberDoc[] = [];
    for (let i = start; i < Math.min(start + batch, total); i++) {
      const loginId = `user${String(i).padStart(6, '0')}`;
      docs.push({
        _id: `id-${i}`,
        loginId,
        loginKey: loginId,
        email: `${loginId}@example.com`,
        emailKey: `${loginId}@example.com`,
        phoneNumber: `010${String(i).padStart(8, '0')}`,
        role: 'member',
        provider: 'local',
        createdAt: new Date(Date.UTC(2026, 0, 1) + i * 1000),
      });
    }
    await members.model.insertMany(docs, { ordered: false, lean: true });
  }
  console.log(`inserted ${total} members in ${Date.now() - started} ms`);
  const services = { members } as unknown as AuthServices;
  const probes: Array<[string, Record<string, string>]> = [
    ['first page, newest first (no query)', {}],
    ['page 50, newest first', { page: '50' }],
    ['exact login id "USER054321"', { q: 'USER054321' }],
    ['exact e-mail "user012345@example.com"', { q: 'user012345@example.com' }],
    ['exact phone "010-0009-9999"', { q: '010-0009-9999' }],
    ['login id prefix "user0999"', { q: 'user0999' }],
    ['e-mail prefix "user055555@"', { q: 'user055555@' }],
    ['phone prefix "0100007"', { q: '0100007' }],
    ['no match', { q: 'nobody' }],
  ];
  await printMedians(probes, (query) => searchMembers(services, { pageSize: '20', ...query }));
  await connection.close();
} finally {
  await mongo.close();
}
