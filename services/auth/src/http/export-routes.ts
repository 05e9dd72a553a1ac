import type { Express, Request, Response } from 'express';
import { HttpError, dateCondition, instantRange, streamNdjson } from '@smm/platform';
import type { AuthServices } from '../use-cases/context.ts';
import { callingOperator } from '../use-cases/operators.ts';
import { callerOf } from './request.ts';

const words = {
  rangeInvalid: '기간을 올바르게 입력해 주세요. (ISO 8601, 시작 ≤ 끝)',
  filterInvalid: '검색 조건이 올바르지 않습니다.',
};
const roles = new Set(['member', 'staff', 'admin']);
const safeText = /^[\w.:-]{1,64}$/;

function optional(req: Request, name: string, ok: (value: string) => boolean): string | undefined {
  const value = req.query[name];
  if (value === undefined || value === '') return undefined;
  if (typeof value !== 'string' || !ok(value)) throw new HttpError(400, 'VALIDATION_FAILED', words.filterInvalid);
  return value;
}

/**
 * The back office's exports of auth's records (issue 41), admins only: members are personal data
 * (e-mail, phone), and the audit log oversees operators. NDJSON streamed from a cursor, oldest
 * first; the BFF turns it into CSV. Secrets (password hashes, API-key hashes) never leave.
 */
export function exportRoutes(app: Express, services: AuthServices): void {
  app.get('/admin/export/members', async (req: Request, res: Response) => {
    await callingOperator(services, callerOf(req), 'admin');
    const range = instantRange(req.query, words.rangeInvalid);
    const role = optional(req, 'role', (v) => roles.has(v));
    const query: Record<string, unknown> = {};
    const createdAt = dateCondition(range);
    if (createdAt) query.createdAt = createdAt;
    if (role !== undefined) query.role = role;
    const projection = { loginId: 1, email: 1, phoneNumber: 1, role: 1, provider: 1, registerWhere: 1, referredBy: 1, status: 1, restriction: 1, createdAt: 1 };
    const cursor = services.connection.collection('members').find(query, { projection }).sort({ createdAt: 1, _id: 1 }).batchSize(500);
    await streamNdjson(req, res, cursor, ({ _id, ...doc }) => ({ userId: String(_id), ...doc }));
  });

  app.get('/admin/export/audit', async (req: Request, res: Response) => {
    await callingOperator(services, callerOf(req), 'admin');
    const range = instantRange(req.query, words.rangeInvalid);
    const query: Record<string, unknown> = {};
    const at = dateCondition(range);
    if (at) query.at = at;
    for (const name of ['actorId', 'action', 'targetType', 'targetId'] as const) {
      const value = optional(req, name, (v) => safeText.test(v));
      if (value !== undefined) query[name] = value;
    }
    const cursor = services.connection.collection('audit_records').find(query).sort({ at: 1, _id: 1 }).batchSize(500);
    await streamNdjson(req, res, cursor, ({ _id, ...doc }) => ({ id: String(_id), ...doc }));
  });
}
