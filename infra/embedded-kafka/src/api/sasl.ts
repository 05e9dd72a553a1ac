import type { BrokerContext, RequestHeader } from '../broker-context.ts';
import { ErrorCode } from '../protocol/error-codes.ts';
import type { Reader } from '../protocol/reader.ts';
import { Writer } from '../protocol/writer.ts';
import type { Handler } from './handler.ts';

const MECHANISMS = ['PLAIN'];
/** Kafka's message for a wrong user or password; which of the two is never said. */
const FAILED = 'Authentication failed: Invalid username or password';

/**
 * Checks a PLAIN token (RFC 4616: authzid NUL authcid NUL passwd). Sets the session's principal on
 * success; logs the user name (never the password) on failure. Returns the failure message.
 */
export function authenticatePlain(ctx: BrokerContext, h: Pick<RequestHeader, 'session' | 'clientHost'>, token: Buffer): string | null {
  const parts = token.toString('utf8').split('\0');
  let refused: string | null = null;
  let user = '';
  if (parts.length !== 3) refused = 'Invalid SASL/PLAIN response: expected 3 tokens';
  else {
    const [authzid, authcid, password] = parts as [string, string, string];
    user = authcid;
    if (authcid === '' || password === '') refused = 'Authentication failed: username and password must not be empty';
    else if (authzid !== '' && authzid !== authcid) refused = 'Authentication failed: Client requested an authorization id that is different from username';
    else if (!ctx.acl?.authenticate(authcid, password)) refused = FAILED;
  }
  if (refused !== null) {
    ctx.logger.warn({ user, client: h.clientHost }, 'SASL authentication failed');
    h.session.closeAfterReply = true;
    return refused;
  }
  h.session.state = 'done';
  h.session.principal = user;
  ctx.logger.debug({ user, client: h.clientHost }, 'SASL authenticated');
  return null;
}

/**
 * v0: the PLAIN token follows as a bare size-prefixed frame; v1: in a SaslAuthenticate request.
 * An unsupported mechanism is answered and the connection closed, as Kafka does. With SASL off,
 * or once authenticated (no re-authentication: session lifetime 0), the answer is ILLEGAL_SASL_STATE.
 */
export const saslHandshake: Handler = (ctx, h, r) => {
  const mechanism = r.string();
  const w = new Writer();
  if (ctx.acl === null || h.session.state !== 'start') {
    return w.int16(ErrorCode.IllegalSaslState).array([], () => undefined);
  }
  if (!MECHANISMS.includes(mechanism)) {
    ctx.logger.warn({ mechanism, client: h.clientHost }, 'unsupported SASL mechanism, connection closed');
    h.session.closeAfterReply = true;
    return w.int16(ErrorCode.UnsupportedSaslMechanism).array(MECHANISMS, (w, m) => void w.string(m));
  }
  h.session.state = h.apiVersion === 0 ? 'raw' : 'authenticate';
  return w.int16(ErrorCode.None).array(MECHANISMS, (w, m) => void w.string(m));
};

function readAuthBytes(r: Reader, flexible: boolean): Buffer {
  if (!flexible) return r.bytes();
  r.skipTaggedFields(); // request header v2's tagged fields
  const len = r.uvarint() - 1;
  const bytes = len <= 0 ? Buffer.alloc(0) : r.take(len);
  r.skipTaggedFields();
  return bytes;
}

/** v0–1 and the flexible v2 (request header v2, response header v1, compact fields). */
export const saslAuthenticate: Handler = (ctx, h, r) => {
  const v = h.apiVersion;
  const flexible = v >= 2;
  const token = readAuthBytes(r, flexible);
  let error: number = ErrorCode.None;
  let message: string | null = null;
  if (ctx.acl === null || h.session.state !== 'authenticate') {
    error = ErrorCode.IllegalSaslState;
    message = ctx.acl === null ? 'SASL is not enabled on this broker' : 'SaslAuthenticate request received after successful authentication';
  } else {
    message = authenticatePlain(ctx, h, token);
    if (message !== null) error = ErrorCode.SaslAuthenticationFailed;
  }
  const w = new Writer();
  if (flexible) {
    w.int8(0); // response header v1: no tagged fields
    w.int16(error);
    if (message === null) w.uvarint(0);
    else {
      const b = Buffer.from(message, 'utf8');
      w.uvarint(b.length + 1).raw(b);
    }
    w.uvarint(1); // auth_bytes: empty (PLAIN has no server challenge)
    w.int64(0).int8(0); // session_lifetime_ms (no re-authentication), tagged fields
    return w;
  }
  w.int16(error).nullableString(message).nullableBytes(Buffer.alloc(0));
  if (v >= 1) w.int64(0);
  return w;
};
