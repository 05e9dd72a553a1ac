import type { NextFunction, Request, Response } from 'express';
import { registerWhereList } from '@smm/contracts/http';
import { HttpError } from '@smm/platform';
import { messages } from '../messages.ts';
import { readAnswer } from '../upstream/read-answer.ts';
import { failed } from '../upstream/relay.ts';
import type { ServiceClient } from '../upstream/service-client.ts';
import { callContext } from './context.ts';

const notOffered = () => new HttpError(400, 'REGISTER_WHERE_INVALID', '가입 경로는 제시된 항목 중에서 선택해 주세요.');

/**
 * Sign-up's registration path must be one of the options the form offers (catalog's
 * register-where list, which operators edit). The BFF checks it because it already reads that
 * list; auth holds no copy of it (catalog publishes no event for it, and auth starts before catalog).
 * An empty or missing path goes on to auth, whose rules answer it in the spec's order.
 */
export function offeredRegisterWhere(catalog: ServiceClient) {
  return async (req: Request, _res: Response, next: NextFunction) => {
    const body = (req.body ?? {}) as { registerWhere?: unknown };
    const chosen = typeof body.registerWhere === 'string' ? body.registerWhere.trim() : '';
    if (chosen === '') return next();
    const ctx = callContext(req);
    const answer = await catalog.call(ctx, 'GET', '/register-where');
    if (failed(answer)) throw new HttpError(503, 'SERVICE_UNAVAILABLE', messages.serviceUnavailable);
    const offered = readAnswer(ctx, answer, registerWhereList).some((option) => option.text === chosen);
    if (!offered) throw notOffered();
    next();
  };
}
