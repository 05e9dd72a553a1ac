// Keyspace notifications (CONFIG SET notify-keyspace-events): the flag letters of Redis 7.0 and
// the PUBLISH to __keyspace@<db>__:<key> (message: event) and __keyevent@<db>__:<event>
// (message: key). Commands call db.notify(class, event, key) at the points Redis does.

export const NOTIFY = {
  KEYSPACE: 1 << 0, // K
  KEYEVENT: 1 << 1, // E
  GENERIC: 1 << 2, // g
  STRING: 1 << 3, // $
  LIST: 1 << 4, // l
  SET: 1 << 5, // s
  HASH: 1 << 6, // h
  ZSET: 1 << 7, // z
  EXPIRED: 1 << 8, // x
  EVICTED: 1 << 9, // e
  STREAM: 1 << 10, // t
  MODULE: 1 << 11, // d
} as const;

const CLASSES: [string, number][] = [
  ['g', NOTIFY.GENERIC],
  ['$', NOTIFY.STRING],
  ['l', NOTIFY.LIST],
  ['s', NOTIFY.SET],
  ['h', NOTIFY.HASH],
  ['z', NOTIFY.ZSET],
  ['x', NOTIFY.EXPIRED],
  ['e', NOTIFY.EVICTED],
  ['t', NOTIFY.STREAM],
  ['d', NOTIFY.MODULE],
];
/** Redis's 'A': every class except key-miss and new-key. */
const ALL = CLASSES.reduce((n, [, f]) => n | f, 0);

/**
 * Parses the flag string. 'e' (evicted) and 'd' (module) are accepted because the events they
 * select cannot happen here (no eviction, no modules) — exactly as on a real Redis with neither.
 * 't' selects the stream events this server generates (xadd, xtrim, xgroup-create,
 * xgroup-createconsumer). 'm' (key miss) and 'n' (new key) are refused: this server does not
 * generate them, and accepting them would silently deliver nothing.
 */
export function parseNotifyFlags(v: string): number | { error: string } {
  let flags = 0;
  for (const ch of v) {
    if (ch === 'A') flags |= ALL;
    else if (ch === 'K') flags |= NOTIFY.KEYSPACE;
    else if (ch === 'E') flags |= NOTIFY.KEYEVENT;
    else if (ch === 'm' || ch === 'n') {
      return { error: `the embedded server does not implement '${ch}' (${ch === 'm' ? 'key-miss' : 'new-key'}) events` };
    } else {
      const c = CLASSES.find(([l]) => l === ch);
      if (c === undefined) return { error: "Invalid event class character. Use 'Ag$lshzxeKEtmdn'." };
      flags |= c[1];
    }
  }
  return flags;
}

/** The canonical string CONFIG GET shows (Redis's keyspaceEventsFlagsToString). */
export function notifyFlagsToString(flags: number): string {
  let s = '';
  if ((flags & ALL) === ALL) s += 'A';
  else for (const [l, f] of CLASSES) if (flags & f) s += l;
  if (flags & NOTIFY.KEYSPACE) s += 'K';
  if (flags & NOTIFY.KEYEVENT) s += 'E';
  return s;
}

/** Shared by all databases: the configured flags and how to publish. */
export interface KeyEvents {
  flags: number;
  publish(channel: string, message: string): void;
}

export function emitKeyEvent(ev: KeyEvents, db: number, cls: number, event: string, key: string): void {
  const f = ev.flags;
  if ((f & cls) === 0) return;
  if (f & NOTIFY.KEYSPACE) ev.publish(`__keyspace@${db}__:${key}`, event);
  if (f & NOTIFY.KEYEVENT) ev.publish(`__keyevent@${db}__:${event}`, key);
}
