import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { OperatorActed, Topics } from '@smm/contracts';
import { EventProducer, createKafka, createLogger } from '@smm/platform';
import { callerHeaders } from '@smm/testkit';
import { messages } from '../src/messages.ts';
import { AuthUnderTest, type Infra, as, eventually, freshId, startInfra, firstAdmin, signInFirstAdmin } from './support/harness.ts';

type AuditPage = {
  items: Array<{
    id: string;
    at: string;
    actor: { userId: string; loginId: string | null; role: string };
    action: string;
    target: { type: string; id: string; loginId: string | null };
    before: Record<string, unknown> | null;
    after: Record<string, unknown> | null;
  }>;
  page: number;
  hasNext: boolean;
};

let infra: Infra;
let auth: AuthUnderTest;
let producer: EventProducer;
let admin: { userId: string; as: Record<string, string> };

beforeAll(async () => {
  infra = await startInfra();
  auth = await AuthUnderTest.start(infra, null, firstAdmin);
  admin = await signInFirstAdmin(auth);
  producer = new EventProducer(createKafka([infra.kafka.brokers], 'wallet-test', createLogger({ service: 'wallet-test', level: 'silent' })));
  await producer.connect();
});

afterAll(async () => {
  await producer?.disconnect();
  await auth?.stop();
  await infra?.stop();
});

async function newMember() {
  const id = freshId();
  const created = await auth.post<{ userId: string }>('/members', { id, password: 'secret-123', email: `${id}@example.com`, registerWhere: '블로그' });
  expect(created.status).toBe(201);
  return { id, userId: created.body.userId };
}

const search = (query: string, headers = admin.as) => auth.call<AuditPage>('GET', `/admin/audit?${query}`, undefined, headers);

describe('audit log', () => {
  it("records an admin's role change once, with who, the target's login id and the role before and after", async () => {
    const m = await newMember();
    expect((await auth.call('PUT', `/admin/members/${m.userId}/role`, { role: 'staff' }, admin.as)).status).toBe(200);
    const found = await eventually(() => search(`target=${m.userId}`), (a) => a.body.items.length > 0, 20_000);
    expect(found.status).toBe(200);
    expect(found.body.items).toEqual([
      expect.objectContaining({
        actor: { userId: admin.userId, loginId: 'root', role: 'admin' },
        action: 'auth.member.role',
        target: { type: 'member', id: m.userId, loginId: m.id },
        before: { role: 'member' },
        after: { role: 'staff' },
      }),
    ]);
    // The same role again changes nothing and records nothing; a refused change neither.
    expect((await auth.call('PUT', `/admin/members/${m.userId}/role`, { role: 'staff' }, admin.as)).status).toBe(200);
    expect((await auth.call('PUT', `/admin/members/${m.userId}/role`, { role: 'admin' }, admin.as)).status).toBe(400);
    expect((await auth.call('PUT', `/admin/members/${m.userId}/role`, { role: 'member' }, admin.as)).status).toBe(200);
    const both = await eventually(() => search(`target=${m.userId}`), (a) => a.body.items.length >= 2, 20_000);
    expect(both.body.items.map((i) => i.after)).toEqual([{ role: 'member' }, { role: 'staff' }]);
  });

  it("records a restriction set and lifted, with level, reason and end before and after", async () => {
    const m = await newMember();
    const until = new Date(Date.now() + 86_400_000).toISOString();
    expect((await auth.call('PUT', `/admin/members/${m.userId}/restriction`, { level: 'suspended', reason: '도배', until }, admin.as)).status).toBe(200);
    expect((await auth.call('PUT', `/admin/members/${m.userId}/restriction`, { level: 'none', reason: '소명 확인' }, admin.as)).status).toBe(200);
    const found = await eventually(() => search(`target=${m.userId}&action=auth.member.restriction`), (a) => a.body.items.length >= 2, 20_000);
    expect(found.body.items.map((i) => [i.before, i.after])).toEqual([
      [
        { level: 'suspended', reason: '도배', until },
        { level: null, reason: null, until: null },
      ],
      [
        { level: null, reason: null, until: null },
        { level: 'suspended', reason: '도배', until },
      ],
    ]);
    expect(found.body.items[0]?.actor.loginId).toBe('root');
  });

  it('keeps one record per event when the audit topic delivers it twice, and filters by actor, action, target type and day', async () => {
    const actor = await newMember();
    const target = `topup-${randomUUID()}`;
    const event = OperatorActed.create(
      target,
      {
        actor: { userId: actor.userId, role: 'staff' },
        service: 'wallet',
        action: 'wallet.topup.approve',
        target: { type: 'topup', id: target },
        before: { status: 'PENDING' },
        after: { status: 'APPROVED' },
      },
      { correlationId: randomUUID() },
    );
    await producer.publish(Topics.audit, [event]);
    await producer.publish(Topics.audit, [event]);
    await eventually(() => search(`target=${target}`), (a) => a.body.items.length > 0, 20_000);
    // A later marker event on the same partition key proves the duplicate was consumed before it.
    const marker = OperatorActed.create(target, { ...event.data, before: { status: 'APPROVED' }, after: { status: 'REJECTED' }, action: 'wallet.topup.reject' }, { correlationId: randomUUID() });
    await producer.publish(Topics.audit, [marker]);
    const all = await eventually(() => search(`target=${target}`), (a) => a.body.items.length >= 2, 20_000);
    expect(all.body.items.map((i) => i.action)).toEqual(['wallet.topup.reject', 'wallet.topup.approve']);

    const byActor = await search(`actor=${actor.id.toUpperCase()}&action=wallet.topup.approve`);
    expect(byActor.body.items).toHaveLength(1);
    expect(byActor.body.items[0]).toMatchObject({ id: event.eventId, actor: { loginId: actor.id, role: 'staff' }, target: { type: 'topup', id: target, loginId: null } });
    const today = new Date(Date.now() + 9 * 3600_000).toISOString().slice(0, 10);
    expect((await search(`target=${target}&targetType=topup&from=${today}&to=${today}`)).body.items).toHaveLength(2);
    expect((await search(`target=${target}&from=2020-01-01&to=2020-01-02`)).body.items).toHaveLength(0);
    expect((await search('actor=no-such-operator')).body.items).toHaveLength(0);
  });

  it('names the member a money action benefits, by login id, and finds the actions that benefited one member (issue 39)', async () => {
    const [operator, member] = [await newMember(), await newMember()];
    const target = `topup-${randomUUID()}`;
    const approve = OperatorActed.create(
      target,
      { actor: { userId: operator.userId, role: 'staff' }, service: 'wallet', action: 'wallet.topup.approve', target: { type: 'topup', id: target }, before: { status: 0 }, after: { status: 1 }, beneficiaryId: member.userId },
      { correlationId: randomUUID() },
    );
    await producer.publish(Topics.audit, [approve]);
    const found = await eventually(() => search(`beneficiary=${member.id}`), (a) => a.body.items.length > 0, 20_000);
    expect(found.body.items).toHaveLength(1);
    expect(found.body.items[0]).toMatchObject({ id: approve.eventId, actor: { loginId: operator.id }, beneficiary: { userId: member.userId, loginId: member.id } });
    expect((await search(`beneficiary=${operator.id}`)).body.items).toEqual([]);
  });

  it('pages on the server, newest first', async () => {
    const m = await newMember();
    for (const role of ['staff', 'member', 'staff'] as const) {
      expect((await auth.call('PUT', `/admin/members/${m.userId}/role`, { role }, admin.as)).status).toBe(200);
    }
    await eventually(() => search(`target=${m.userId}`), (a) => a.body.items.length >= 3, 20_000);
    const first = await search(`target=${m.userId}&pageSize=2`);
    const second = await search(`target=${m.userId}&pageSize=2&page=2`);
    expect(first.body).toMatchObject({ page: 1, hasNext: true });
    expect(second.body).toMatchObject({ page: 2, hasNext: false });
    expect([...first.body.items, ...second.body.items].map((i) => i.after?.role)).toEqual(['staff', 'member', 'staff']);
  });

  it('answers 400 in Korean for a bad filter, and only admins may read it', async () => {
    expect(await search('action=wallet.steal')).toMatchObject({ status: 400, body: { message: messages.auditActionInvalid } });
    expect(await search('from=yesterday')).toMatchObject({ status: 400, body: { message: messages.auditDateInvalid } });
    const staff = await newMember();
    expect((await auth.call('PUT', `/admin/members/${staff.userId}/role`, { role: 'staff' }, admin.as)).status).toBe(200);
    expect(await search('', callerHeaders({ to: 'auth', userId: staff.userId, role: 'staff' }))).toMatchObject({ status: 403, body: { message: messages.adminOnly } });
    expect((await search('', as(staff.userId))).status).toBe(403);
  });
});
