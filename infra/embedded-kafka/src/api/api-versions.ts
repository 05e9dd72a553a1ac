import { MAX_VERSION } from '../protocol/api-keys.ts';
import { ErrorCode } from '../protocol/error-codes.ts';
import { Writer } from '../protocol/writer.ts';
import type { Handler } from './handler.ts';

/**
 * Newer clients (librdkafka sends v3) get a v0-shaped body with UNSUPPORTED_VERSION and our
 * ranges; they retry with a version from those ranges.
 */
export const apiVersions: Handler = (_ctx, header) => {
  const w = new Writer();
  const unsupported = header.apiVersion > (MAX_VERSION.get(18) ?? 0);
  w.int16(unsupported ? ErrorCode.UnsupportedVersion : ErrorCode.None);
  w.array([...MAX_VERSION.entries()], (w, [key, max]) => {
    w.int16(key).int16(0).int16(max);
  });
  if (!unsupported && header.apiVersion >= 1) w.int32(0);
  return w;
};
