/** Korean messages for the generic answers; services pass their own for domain errors. */
export const genericMessages = {
  badRequest: '입력 형식이 올바르지 않습니다.',
  unauthorized: '로그인이 필요합니다.',
  forbidden: '이 작업을 수행할 권한이 없습니다.',
  notFound: '요청한 대상을 찾을 수 없습니다.',
  routeNotFound: '요청한 경로를 찾을 수 없습니다.',
  payloadTooLarge: '요청 내용이 너무 큽니다.',
  unsupportedMediaType: '지원하지 않는 요청 형식입니다.',
  tooManyRequests: '요청이 너무 많습니다. 잠시 후 다시 시도해 주세요.',
  internal: '일시적인 오류가 발생했습니다. 잠시 후 다시 시도해 주세요.',
} as const;

/**
 * An error whose status, code and message are meant for the client. Anything else thrown in a
 * route becomes a 500 with a generic message and is logged with its stack.
 */
export class HttpError extends Error {
  override name = 'HttpError';
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
    readonly details?: unknown,
  ) {
    super(message);
  }
}

/**
 * A 503 that asks the client to send the same request again shortly: nothing was done, and the
 * answer carries `Retry-After` (seconds), which the BFF passes on.
 */
export class RetryLater extends HttpError {
  constructor(
    code: string,
    message: string,
    readonly retryAfterSeconds = 1,
  ) {
    super(503, code, message);
  }
}

export const badRequest = (message: string = genericMessages.badRequest, details?: unknown, code = 'BAD_REQUEST') =>
  new HttpError(400, code, message, details);
export const unauthorized = (message: string = genericMessages.unauthorized, code = 'UNAUTHORIZED') => new HttpError(401, code, message);
export const forbidden = (message: string = genericMessages.forbidden, code = 'FORBIDDEN') => new HttpError(403, code, message);
export const notFound = (message: string = genericMessages.notFound, code = 'NOT_FOUND') => new HttpError(404, code, message);
export const conflict = (message: string, code = 'CONFLICT') => new HttpError(409, code, message);
export const tooManyRequests = (message: string = genericMessages.tooManyRequests, code = 'TOO_MANY_REQUESTS') =>
  new HttpError(429, code, message);

/** The JSON body of every error answer. */
export type ErrorBody = { code: string; message: string; details?: unknown };
