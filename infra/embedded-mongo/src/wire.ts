// MongoDB wire framing: OP_QUERY (legacy handshake) in, OP_REPLY out; OP_MSG both ways.
import * as BSON from 'bson';
import type { Doc } from './values.ts';

export const OP_REPLY = 1;
export const OP_QUERY = 2004;
export const OP_MSG = 2013;
export const OP_COMPRESSED = 2012;

const CHECKSUM_PRESENT = 1;
export const MORE_TO_COME = 2;

export const MAX_MESSAGE_BYTES = 48_000_000;

export class ProtocolError extends Error {}

export interface Header {
  length: number;
  requestId: number;
  responseTo: number;
  opCode: number;
}

export interface Request {
  header: Header;
  kind: 'query' | 'msg';
  /** The command document, with OP_MSG document sequences merged in as arrays. */
  command: Doc;
  /** For OP_QUERY: the full collection name, e.g. "admin.$cmd". */
  fullCollectionName?: string;
  moreToCome: boolean;
}

const DESERIALIZE: BSON.DeserializeOptions = { promoteValues: false, validation: { utf8: false } };

function readCString(buf: Buffer, offset: number): [string, number] {
  const end = buf.indexOf(0, offset);
  if (end < 0) throw new ProtocolError('unterminated cstring');
  return [buf.toString('utf8', offset, end), end + 1];
}

function readDoc(buf: Buffer, offset: number, limit: number): [Doc, number] {
  if (offset + 5 > limit) throw new ProtocolError('truncated document');
  const size = buf.readInt32LE(offset);
  if (size < 5 || offset + size > limit) throw new ProtocolError('bad document size');
  const doc = BSON.deserialize(buf.subarray(offset, offset + size), DESERIALIZE) as Doc;
  return [doc, offset + size];
}

export function parseHeader(buf: Buffer): Header {
  return {
    length: buf.readInt32LE(0),
    requestId: buf.readInt32LE(4),
    responseTo: buf.readInt32LE(8),
    opCode: buf.readInt32LE(12),
  };
}

/** Parses one complete message (buf holds exactly header.length bytes). Throws ProtocolError. */
export function parseMessage(buf: Buffer): Request {
  const header = parseHeader(buf);
  if (header.opCode === OP_MSG) {
    const flags = buf.readUInt32LE(16);
    // Bits 0-15 are required: an unknown one must fail. Bits 16-31 (e.g. exhaustAllowed) are optional.
    if (flags & 0xffff & ~(CHECKSUM_PRESENT | MORE_TO_COME)) throw new ProtocolError('unknown required OP_MSG flag bits');
    const end = flags & CHECKSUM_PRESENT ? buf.length - 4 : buf.length;
    let off = 20;
    let body: Doc | undefined;
    const sequences: Array<[string, Doc[]]> = [];
    while (off < end) {
      const kind = buf.readUInt8(off);
      off += 1;
      if (kind === 0) {
        if (body) throw new ProtocolError('more than one body section');
        [body, off] = readDoc(buf, off, end);
      } else if (kind === 1) {
        if (off + 4 > end) throw new ProtocolError('truncated sequence');
        const size = buf.readInt32LE(off);
        const seqEnd = off + size;
        if (size < 5 || seqEnd > end) throw new ProtocolError('bad sequence size');
        const [name, start] = readCString(buf, off + 4);
        let p = start;
        const docs: Doc[] = [];
        while (p < seqEnd) {
          let d: Doc;
          [d, p] = readDoc(buf, p, seqEnd);
          docs.push(d);
        }
        sequences.push([name, docs]);
        off = seqEnd;
      } else {
        throw new ProtocolError(`unknown section kind ${kind}`);
      }
    }
    if (!body) throw new ProtocolError('OP_MSG without body');
    for (const [name, docs] of sequences) body[name] = docs;
    return { header, kind: 'msg', command: body, moreToCome: (flags & MORE_TO_COME) !== 0 };
  }
  if (header.opCode === OP_QUERY) {
    const [ns, afterName] = readCString(buf, 20);
    // numberToSkip and numberToReturn (8 bytes) are irrelevant for commands.
    const [query] = readDoc(buf, afterName + 8, buf.length);
    // Legacy drivers may wrap the command as {$query: {...}, $readPreference: ...}.
    const inner = query['$query'];
    const command = inner && typeof inner === 'object' ? (inner as Doc) : query;
    return { header, kind: 'query', command, fullCollectionName: ns, moreToCome: false };
  }
  throw new ProtocolError(`unsupported opCode ${header.opCode}`);
}

let nextRequestId = 1;

function serializeDoc(doc: Doc): Buffer {
  return Buffer.from(BSON.serialize(doc, { ignoreUndefined: true }));
}

export function buildMsg(responseTo: number, doc: Doc): Buffer {
  const body = serializeDoc(doc);
  const header = Buffer.alloc(21);
  header.writeInt32LE(21 + body.length, 0);
  header.writeInt32LE(nextRequestId++ & 0x7fffffff, 4);
  header.writeInt32LE(responseTo, 8);
  header.writeInt32LE(OP_MSG, 12);
  header.writeUInt32LE(0, 16);
  header.writeUInt8(0, 20);
  return Buffer.concat([header, body]);
}

export function buildReply(responseTo: number, doc: Doc): Buffer {
  const body = serializeDoc(doc);
  const header = Buffer.alloc(36);
  header.writeInt32LE(36 + body.length, 0);
  header.writeInt32LE(nextRequestId++ & 0x7fffffff, 4);
  header.writeInt32LE(responseTo, 8);
  header.writeInt32LE(OP_REPLY, 12);
  header.writeInt32LE(0, 16); // responseFlags
  header.writeBigInt64LE(0n, 20); // cursorID
  header.writeInt32LE(0, 28); // startingFrom
  header.writeInt32LE(1, 32); // numberReturned
  return Buffer.concat([header, body]);
}
