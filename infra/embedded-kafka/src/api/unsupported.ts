import { ApiKey } from '../protocol/api-keys.ts';
import { ErrorCode } from '../protocol/error-codes.ts';
import { Writer } from '../protocol/writer.ts';

/**
 * Error answers (UNSUPPORTED_VERSION) for requests in a version above the advertised range, so
 * a client that does not negotiate (kafka-python 2.0 infers a release and sends its versions)
 * reports an error instead of reconnecting forever. Only answers whose layout in that version
 * carries a top-level error code can say so; the others (Produce, Metadata, ...) have only
 * per-topic errors that would need the request decoded, and close the connection instead.
 *
 * Flexible versions (KIP-482) use response header v1, whose empty tagged-field section is the
 * single byte 0 after the correlation id, and single-byte varints for the empty/null compact
 * fields written here: 0 = null, 1 = empty string or array, 0 = no tagged fields.
 */
const FLEXIBLE_FROM: ReadonlyMap<number, number> = new Map([
  [ApiKey.Fetch, 12],
  [ApiKey.FindCoordinator, 3],
  [ApiKey.JoinGroup, 6],
  [ApiKey.Heartbeat, 4],
  [ApiKey.LeaveGroup, 4],
  [ApiKey.SyncGroup, 4],
  [ApiKey.ListGroups, 3],
  [ApiKey.InitProducerId, 2],
]);

const NO_TAGS = 0;
const COMPACT_NULL = 0;
const COMPACT_EMPTY = 1;

export function unsupportedVersionAnswer(apiKey: number, v: number): Writer | null {
  const flexibleFrom = FLEXIBLE_FROM.get(apiKey);
  if (flexibleFrom === undefined) return null;
  const flexible = v >= flexibleFrom;
  const w = new Writer();
  if (flexible) w.int8(NO_TAGS); // response header v1
  const str = (): Writer => (flexible ? w.int8(COMPACT_EMPTY) : w.string(''));
  const arr = (): Writer => (flexible ? w.int8(COMPACT_EMPTY) : w.int32(0));
  // Every version above our ranges has throttle_time_ms first, then error_code.
  w.int32(0).int16(ErrorCode.UnsupportedVersion);
  switch (apiKey) {
    case ApiKey.Fetch:
      w.int32(0); // session_id
      arr(); // responses
      break;
    case ApiKey.FindCoordinator:
      if (v >= 4) return null; // batched: one entry per requested key
      if (flexible) w.int8(COMPACT_NULL);
      else w.nullableString(null);
      w.int32(-1);
      str();
      w.int32(-1);
      break;
    case ApiKey.JoinGroup:
      w.int32(-1); // generation_id
      if (v >= 7) w.int8(COMPACT_NULL); // protocol_type
      if (v >= 7) w.int8(COMPACT_NULL);
      else str(); // protocol_name
      str(); // leader
      if (v >= 9) w.bool(false); // skip_assignment
      str(); // member_id
      arr(); // members
      break;
    case ApiKey.SyncGroup:
      if (v >= 5) w.int8(COMPACT_NULL).int8(COMPACT_NULL); // protocol_type, protocol_name
      if (flexible) w.int8(COMPACT_EMPTY);
      else w.int32(0); // assignment
      break;
    case ApiKey.LeaveGroup:
      if (v >= 3) arr(); // members
      break;
    case ApiKey.ListGroups:
      arr(); // groups
      break;
    case ApiKey.InitProducerId:
      w.int64(-1).int16(-1);
      break;
    case ApiKey.Heartbeat:
      break;
  }
  if (flexible) w.int8(NO_TAGS);
  return w;
}
