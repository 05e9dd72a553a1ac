import type { Response } from 'express';
import { type ErrorBody, errorBody } from '@smm/contracts/http';
import { HttpError } from '@smm/platform';
import { messages } from '../messages.ts';
import type { ServiceAnswer } from './service-client.ts';

/** Headers a client may act on; everything else a service sends stays internal. */
const passedHeaders = ['retry-after', 'etag'];

/** An error body in the platform's shape (`{code, message, ...}`), as every service answers. */
export function isErrorBody(body: unknown): body is ErrorBody {
  return errorBody.safeParse(body).success;
}

/**
 * Answers the client with what the service said. Error answers keep the service's status, code and
 * Korean message (spec §8 needs 400/404/409 as they are) and any extra field such as the social
 * sign-up continuation token. A 5xx without a proper body becomes a generic 502.
 */
export function relay(res: Response, answer: ServiceAnswer): void {
  if (answer.status >= 500 && !isErrorBody(answer.body)) throw new HttpError(502, 'SERVICE_FAILED', messages.upstreamFailed);
  for (const name of passedHeaders) {
    const value = answer.headers.get(name);
    if (value !== null) res.setHeader(name, value);
  }
  if (answer.body === null || answer.status === 204 || answer.status === 304) {
    res.status(answer.status).end();
    return;
  }
  res.status(answer.status).json(answer.body);
}

/** For composed answers: a non-2xx answer from a service ends the request with that answer. */
export function failed(answer: ServiceAnswer): boolean {
  return answer.status < 200 || answer.status >= 300;
}
