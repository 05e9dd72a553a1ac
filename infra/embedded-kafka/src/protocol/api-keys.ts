/** Kafka API keys this broker answers, with the highest version implemented (min is always 0). */
export const ApiKey = {
  Produce: 0,
  Fetch: 1,
  ListOffsets: 2,
  Metadata: 3,
  OffsetCommit: 8,
  OffsetFetch: 9,
  FindCoordinator: 10,
  JoinGroup: 11,
  Heartbeat: 12,
  LeaveGroup: 13,
  SyncGroup: 14,
  DescribeGroups: 15,
  ListGroups: 16,
  SaslHandshake: 17,
  ApiVersions: 18,
  CreateTopics: 19,
  DeleteTopics: 20,
  InitProducerId: 22,
  DescribeConfigs: 32,
  SaslAuthenticate: 36,
  CreatePartitions: 37,
  DeleteGroups: 42,
} as const;

export type ApiKeyValue = (typeof ApiKey)[keyof typeof ApiKey];

/**
 * Advertised ranges: every version up to the last one before the flexible (tagged-field)
 * encoding. Min is 0 everywhere: librdkafka enables features by range overlap, and a range such
 * as JoinGroup 1..1 silently disables `kcat -G`. kafka-python 2.0 does not negotiate per API: it
 * infers a Kafka release from these ranges (Produce v8 → 2.4) and then sends that release's
 * versions, so each range must include what the inferred release sends (JoinGroup v2, Fetch v4,
 * Produce v7 for zstd, …). JoinGroup stops at v3 and SyncGroup/Heartbeat/LeaveGroup/OffsetCommit
 * stop before their group_instance_id versions: static membership is not implemented.
 */
export const MAX_VERSION: ReadonlyMap<number, number> = new Map([
  [ApiKey.Produce, 8],
  [ApiKey.Fetch, 11],
  [ApiKey.ListOffsets, 5],
  [ApiKey.Metadata, 8],
  [ApiKey.OffsetCommit, 6],
  [ApiKey.OffsetFetch, 5],
  [ApiKey.FindCoordinator, 2],
  [ApiKey.JoinGroup, 3],
  [ApiKey.Heartbeat, 2],
  [ApiKey.LeaveGroup, 2],
  [ApiKey.SyncGroup, 2],
  [ApiKey.DescribeGroups, 4],
  [ApiKey.ListGroups, 2],
  [ApiKey.SaslHandshake, 1],
  [ApiKey.ApiVersions, 2],
  [ApiKey.CreateTopics, 4],
  [ApiKey.DeleteTopics, 3],
  [ApiKey.InitProducerId, 1],
  [ApiKey.DescribeConfigs, 3],
  // v2 is flexible (KIP-482); served because SaslAuthenticate has no non-flexible successor.
  [ApiKey.SaslAuthenticate, 2],
  [ApiKey.CreatePartitions, 1],
  [ApiKey.DeleteGroups, 1],
]);

export const API_NAMES: ReadonlyMap<number, string> = new Map(Object.entries(ApiKey).map(([name, key]) => [key as number, name]));
