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
  ApiVersions: 18,
  CreateTopics: 19,
  DeleteTopics: 20,
  InitProducerId: 22,
  CreatePartitions: 37,
  DeleteGroups: 42,
} as const;

export type ApiKeyValue = (typeof ApiKey)[keyof typeof ApiKey];

/**
 * Advertised ranges. Min is 0 everywhere: librdkafka enables features by range overlap, and
 * a range such as JoinGroup 1..1 silently disables `kcat -G`.
 */
export const MAX_VERSION: ReadonlyMap<number, number> = new Map([
  [ApiKey.Produce, 3],
  [ApiKey.Fetch, 4],
  [ApiKey.ListOffsets, 1],
  [ApiKey.Metadata, 4],
  [ApiKey.OffsetCommit, 2],
  [ApiKey.OffsetFetch, 1],
  [ApiKey.FindCoordinator, 0],
  [ApiKey.JoinGroup, 1],
  [ApiKey.Heartbeat, 0],
  [ApiKey.LeaveGroup, 0],
  [ApiKey.SyncGroup, 0],
  [ApiKey.DescribeGroups, 0],
  [ApiKey.ListGroups, 0],
  [ApiKey.ApiVersions, 2],
  [ApiKey.CreateTopics, 0],
  [ApiKey.DeleteTopics, 0],
  [ApiKey.InitProducerId, 0],
  [ApiKey.CreatePartitions, 0],
  [ApiKey.DeleteGroups, 0],
]);

export const API_NAMES: ReadonlyMap<number, string> = new Map(Object.entries(ApiKey).map(([name, key]) => [key as number, name]));
