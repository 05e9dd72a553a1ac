import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';
import { EmbeddedKafkaError } from '../errors.ts';

/**
 * One SASL/PLAIN user and what it may do. Topic and group names are literal, `prefix*` (Kafka's
 * PREFIXED pattern) or `*` (every name). DESCRIBE of a topic follows from produce, consume or
 * describe, as Kafka's WRITE and READ imply DESCRIBE.
 */
export interface KafkaUser {
  password: string;
  /** Every operation on every resource, as Kafka's `super.users`. */
  superUser?: boolean;
  /** WRITE: Produce (and idempotent producer ids). */
  produce?: readonly string[];
  /** READ: Fetch, and committing offsets of these topics. */
  consume?: readonly string[];
  /** DESCRIBE only: Metadata, ListOffsets, OffsetFetch. */
  describe?: readonly string[];
  /** CREATE: CreateTopics and auto-creation through Metadata. */
  create?: readonly string[];
  /** READ, DESCRIBE and DELETE of these consumer groups. */
  groups?: readonly string[];
}

export interface SaslOptions {
  /** Principal name → password and ACLs. At least one user. */
  users: Readonly<Record<string, KafkaUser>>;
}

export type TopicOp = 'read' | 'write' | 'describe' | 'create' | 'delete' | 'alter' | 'describeConfigs';
export type GroupOp = 'read' | 'describe' | 'delete';
export type ClusterOp = 'describe' | 'create' | 'idempotentWrite' | 'describeConfigs' | 'alter';

interface Compiled {
  digest: Buffer;
  superUser: boolean;
  produce: Matcher;
  consume: Matcher;
  describe: Matcher;
  create: Matcher;
  groups: Matcher;
  writesAny: boolean;
}

type Matcher = (name: string) => boolean;

function matcher(patterns: readonly string[] | undefined, where: string): Matcher {
  const list = patterns ?? [];
  if (!Array.isArray(list) || list.some((p) => typeof p !== 'string' || p === '')) {
    throw new EmbeddedKafkaError('BAD_OPTION', `${where}: expected a list of names, "prefix*" or "*"`);
  }
  const literal = new Set(list.filter((p) => !p.endsWith('*')));
  const prefixes = list.filter((p) => p.endsWith('*')).map((p) => p.slice(0, -1));
  return (name) => literal.has(name) || prefixes.some((p) => name.startsWith(p));
}

/**
 * SASL/PLAIN credentials and per-principal ACLs. Passwords are kept only as salted SHA-256
 * digests and compared in constant time; an unknown user costs the same comparison.
 */
export class Authorizer {
  private readonly salt = randomBytes(16);
  private readonly users = new Map<string, Compiled>();
  private readonly decoy: Buffer;

  constructor(options: SaslOptions) {
    const entries = Object.entries(options.users ?? {});
    if (entries.length === 0) throw new EmbeddedKafkaError('BAD_OPTION', 'sasl.users must name at least one user');
    for (const [name, user] of entries) {
      if (name === '' || name.includes('\0')) throw new EmbeddedKafkaError('BAD_OPTION', `invalid SASL user name ${JSON.stringify(name)}`);
      if (typeof user?.password !== 'string' || user.password === '' || user.password.includes('\0')) {
        throw new EmbeddedKafkaError('BAD_OPTION', `SASL user ${name}: a non-empty password without NUL bytes is required`);
      }
      const where = (field: string) => `SASL user ${name}: ${field}`;
      this.users.set(name, {
        digest: this.digest(user.password),
        superUser: user.superUser === true,
        produce: matcher(user.produce, where('produce')),
        consume: matcher(user.consume, where('consume')),
        describe: matcher(user.describe, where('describe')),
        create: matcher(user.create, where('create')),
        groups: matcher(user.groups, where('groups')),
        writesAny: (user.produce?.length ?? 0) > 0,
      });
    }
    this.decoy = this.digest(randomBytes(16).toString('hex'));
  }

  private digest(password: string): Buffer {
    return createHash('sha256').update(this.salt).update(password, 'utf8').digest();
  }

  /** Whether the pair is a known user with that password. */
  authenticate(username: string, password: string): boolean {
    const user = this.users.get(username);
    const ok = timingSafeEqual(this.digest(password), user?.digest ?? this.decoy);
    return ok && user !== undefined;
  }

  topic(principal: string | null, op: TopicOp, topic: string): boolean {
    const u = principal === null ? undefined : this.users.get(principal);
    if (!u) return false;
    if (u.superUser) return true;
    switch (op) {
      case 'read':
        return u.consume(topic);
      case 'write':
        return u.produce(topic);
      case 'describe':
        return u.consume(topic) || u.produce(topic) || u.describe(topic);
      case 'create':
        return u.create(topic);
      default:
        return false;
    }
  }

  group(principal: string | null, _op: GroupOp, group: string): boolean {
    const u = principal === null ? undefined : this.users.get(principal);
    return u !== undefined && (u.superUser || u.groups(group));
  }

  cluster(principal: string | null, op: ClusterOp): boolean {
    const u = principal === null ? undefined : this.users.get(principal);
    if (!u) return false;
    if (u.superUser) return true;
    // KIP-679: WRITE on any topic implies IDEMPOTENT_WRITE on the cluster.
    return op === 'idempotentWrite' && u.writesAny;
  }
}
