import { ApiKey } from '../protocol/api-keys.ts';
import { createPartitions, createTopics, deleteTopics, initProducerId } from './admin.ts';
import { apiVersions } from './api-versions.ts';
import { describeConfigs } from './configs.ts';
import { fetch } from './fetch.ts';
import { deleteGroups, describeGroups, findCoordinator, heartbeat, joinGroup, leaveGroup, listGroups, syncGroup } from './groups.ts';
import type { Handler } from './handler.ts';
import { listOffsets } from './list-offsets.ts';
import { metadata } from './metadata.ts';
import { offsetCommit, offsetFetch } from './offsets.ts';
import { produce } from './produce.ts';
import { saslAuthenticate, saslHandshake } from './sasl.ts';

export const HANDLERS: ReadonlyMap<number, Handler> = new Map<number, Handler>([
  [ApiKey.Produce, produce],
  [ApiKey.Fetch, fetch],
  [ApiKey.ListOffsets, listOffsets],
  [ApiKey.Metadata, metadata],
  [ApiKey.OffsetCommit, offsetCommit],
  [ApiKey.OffsetFetch, offsetFetch],
  [ApiKey.FindCoordinator, findCoordinator],
  [ApiKey.JoinGroup, joinGroup],
  [ApiKey.Heartbeat, heartbeat],
  [ApiKey.LeaveGroup, leaveGroup],
  [ApiKey.SyncGroup, syncGroup],
  [ApiKey.DescribeGroups, describeGroups],
  [ApiKey.ListGroups, listGroups],
  [ApiKey.DeleteGroups, deleteGroups],
  [ApiKey.ApiVersions, apiVersions],
  [ApiKey.SaslHandshake, saslHandshake],
  [ApiKey.SaslAuthenticate, saslAuthenticate],
  [ApiKey.CreateTopics, createTopics],
  [ApiKey.DeleteTopics, deleteTopics],
  [ApiKey.InitProducerId, initProducerId],
  [ApiKey.DescribeConfigs, describeConfigs],
  [ApiKey.CreatePartitions, createPartitions],
]);
