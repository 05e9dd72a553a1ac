import type { BrokerContext, RequestHeader } from '../broker-context.ts';
import type { Reader } from '../protocol/reader.ts';
import type { Writer } from '../protocol/writer.ts';

/**
 * Decodes a request body and produces the response body. State changes happen synchronously,
 * in request order; only waiting (fsync, long poll, group barriers) is asynchronous.
 * null means "send no response" (Produce with acks=0).
 */
export type Handler = (ctx: BrokerContext, header: RequestHeader, r: Reader) => Writer | null | Promise<Writer | null>;
