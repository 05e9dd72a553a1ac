import type { BrokerContext, RequestHeader } from '../broker-context.ts';
import { ErrorCode } from '../protocol/error-codes.ts';
import { Writer } from '../protocol/writer.ts';
import { mayCluster, mayTopic } from './authz.ts';
import type { Handler } from './handler.ts';

/** Kafka's resource and config-source numbers (DescribeConfigs). */
const RESOURCE_TOPIC = 2;
const RESOURCE_BROKER = 4;
const SOURCE_STATIC_BROKER = 4;
const SOURCE_DEFAULT = 5;
const TYPE = { BOOLEAN: 1, STRING: 2, INT: 3, LONG: 5, LIST: 7 } as const;

interface ConfigEntry {
  name: string;
  value: string;
  type: number;
  source: number;
  /** The broker-level name the value comes from (Kafka's synonym). */
  synonym: string;
  doc: string;
}

/**
 * What a topic is actually governed by. Every value is broker-wide (there are no per-topic
 * overrides), so each entry's source is the broker's start-up configuration or Kafka's default.
 */
export function topicConfigs(ctx: BrokerContext): ConfigEntry[] {
  return [
    { name: 'cleanup.policy', value: 'delete', type: TYPE.LIST, source: SOURCE_DEFAULT, synonym: 'log.cleanup.policy', doc: 'Old segments are deleted; compaction is not implemented.' },
    { name: 'compression.type', value: 'producer', type: TYPE.STRING, source: SOURCE_DEFAULT, synonym: 'compression.type', doc: 'Batches are stored as the producer compressed them.' },
    { name: 'message.timestamp.type', value: 'CreateTime', type: TYPE.STRING, source: SOURCE_DEFAULT, synonym: 'log.message.timestamp.type', doc: 'The producer-set timestamp is kept.' },
    { name: 'min.insync.replicas', value: '1', type: TYPE.INT, source: SOURCE_DEFAULT, synonym: 'min.insync.replicas', doc: 'One broker, one replica.' },
    { name: 'retention.bytes', value: String(ctx.log.retentionBytes), type: TYPE.LONG, source: SOURCE_STATIC_BROKER, synonym: 'log.retention.bytes', doc: 'Per partition; -1 is unlimited (--retention-bytes).' },
    { name: 'retention.ms', value: String(ctx.log.retentionMs), type: TYPE.LONG, source: SOURCE_STATIC_BROKER, synonym: 'log.retention.ms', doc: "Age of a segment's last write; -1 is unlimited (--retention-ms)." },
    { name: 'segment.bytes', value: String(ctx.log.segmentBytes), type: TYPE.INT, source: SOURCE_STATIC_BROKER, synonym: 'log.segment.bytes', doc: 'Retention deletes whole segments (--segment-bytes).' },
  ];
}

function brokerConfigs(ctx: BrokerContext): ConfigEntry[] {
  const fromTopic = topicConfigs(ctx).map((c) => ({ ...c, name: c.synonym }));
  const own: ConfigEntry[] = [
    { name: 'broker.id', value: String(ctx.nodeId), type: TYPE.INT, source: SOURCE_STATIC_BROKER, synonym: 'broker.id', doc: 'Always node 0.' },
    { name: 'advertised.listeners', value: `${ctx.acl ? 'SASL_PLAINTEXT' : 'PLAINTEXT'}://${ctx.advertisedHost}:${ctx.advertisedPort}`, type: TYPE.STRING, source: SOURCE_STATIC_BROKER, synonym: 'advertised.listeners', doc: 'From --advertised-host / --advertised-port.' },
    { name: 'auto.create.topics.enable', value: String(ctx.autoCreateTopics), type: TYPE.BOOLEAN, source: SOURCE_STATIC_BROKER, synonym: 'auto.create.topics.enable', doc: '--auto-create-topics' },
    { name: 'num.partitions', value: String(ctx.defaultPartitions), type: TYPE.INT, source: SOURCE_STATIC_BROKER, synonym: 'num.partitions', doc: '--default-partitions' },
    { name: 'default.replication.factor', value: '1', type: TYPE.INT, source: SOURCE_DEFAULT, synonym: 'default.replication.factor', doc: 'One broker, one replica.' },
  ];
  return [...own, ...fromTopic.filter((c) => !own.some((o) => o.name === c.name))].sort((a, b) => (a.name < b.name ? -1 : 1));
}

/**
 * Per-topic configs at creation: a value equal to the broker-wide one is accepted (it changes
 * nothing); anything else is refused, because it would be stored nowhere and silently not apply.
 */
export function refuseTopicConfigs(ctx: BrokerContext, configs: { name: string; value: string | null }[]): string | null {
  const known = topicConfigs(ctx);
  for (const c of configs) {
    if (c.value === null) continue;
    const entry = known.find((k) => k.name === c.name);
    if (!entry) return `topic config ${c.name} is not supported by this broker; supported (broker-wide): ${known.map((k) => k.name).join(', ')}`;
    if (entry.value !== c.value) return `${c.name} is broker-wide here (${entry.value}); per-topic values are not supported`;
  }
  return null;
}

/** DESCRIBE_CONFIGS: only super users have it here (Kafka grants it separately from READ/WRITE). */
function authorizedToDescribe(ctx: BrokerContext, h: RequestHeader, res: Resource): { error: number; message: string | null; configs: ConfigEntry[] } | null {
  if (res.type === RESOURCE_TOPIC && !mayTopic(ctx, h, 'describeConfigs', res.name)) return { error: ErrorCode.TopicAuthorizationFailed, message: null, configs: [] };
  if (res.type === RESOURCE_BROKER && !mayCluster(ctx, h, 'describeConfigs')) return { error: ErrorCode.ClusterAuthorizationFailed, message: null, configs: [] };
  return null;
}

interface Resource {
  type: number;
  name: string;
  keys: string[] | null;
}

function describe(ctx: BrokerContext, res: Resource): { error: number; message: string | null; configs: ConfigEntry[] } {
  let all: ConfigEntry[];
  if (res.type === RESOURCE_TOPIC) {
    if (!ctx.topics.has(res.name)) return { error: ErrorCode.UnknownTopicOrPartition, message: `unknown topic ${res.name}`, configs: [] };
    all = topicConfigs(ctx);
  } else if (res.type === RESOURCE_BROKER) {
    if (res.name !== '' && res.name !== String(ctx.nodeId)) {
      return { error: ErrorCode.InvalidRequest, message: `this broker is node ${ctx.nodeId}, not ${res.name}`, configs: [] };
    }
    all = brokerConfigs(ctx);
  } else {
    return { error: ErrorCode.InvalidRequest, message: `resource type ${res.type} is not supported (topics 2 and brokers 4 are)`, configs: [] };
  }
  // As Kafka: names that are not configs are left out of the answer.
  const configs = res.keys === null ? all : all.filter((c) => (res.keys as string[]).includes(c.name));
  return { error: ErrorCode.None, message: null, configs };
}

/** Read-only: AlterConfigs is not served, so every entry says read_only. */
export const describeConfigs: Handler = (ctx, h, r) => {
  const v = h.apiVersion;
  const resources = r.array((r): Resource => ({ type: r.int8(), name: r.string(), keys: r.nullableArray((r) => r.string()) }));
  const synonyms = v >= 1 ? r.bool() : false;
  const docs = v >= 3 ? r.bool() : false;
  const w = new Writer().int32(0);
  w.array(resources, (w, res) => {
    const d = authorizedToDescribe(ctx, h, res) ?? describe(ctx, res);
    w.int16(d.error).nullableString(d.message).int8(res.type).string(res.name);
    w.array(d.configs, (w, c) => {
      w.string(c.name).nullableString(c.value).bool(true);
      if (v === 0) w.bool(c.source === SOURCE_DEFAULT);
      else w.int8(c.source);
      w.bool(false); // is_sensitive
      if (v >= 1) {
        const list = synonyms ? [{ name: c.synonym, value: c.value, source: c.source }] : [];
        w.array(list, (w, s) => void w.string(s.name).nullableString(s.value).int8(s.source));
      }
      if (v >= 3) w.int8(c.type).nullableString(docs ? c.doc : null);
    });
  });
  return w;
};
