/** Kafka protocol error codes used by this broker (the numbers clients match on). */
export const ErrorCode = {
  None: 0,
  OffsetOutOfRange: 1,
  CorruptMessage: 2,
  UnknownTopicOrPartition: 3,
  NotCoordinator: 16,
  InvalidTopic: 17,
  RecordListTooLarge: 18,
  IllegalGeneration: 22,
  InconsistentGroupProtocol: 23,
  InvalidGroupId: 24,
  UnknownMemberId: 25,
  InvalidSessionTimeout: 26,
  RebalanceInProgress: 27,
  UnsupportedVersion: 35,
  TopicAlreadyExists: 36,
  InvalidPartitions: 37,
  InvalidReplicationFactor: 38,
  InvalidRequest: 42,
  UnsupportedForMessageFormat: 43,
  OutOfOrderSequenceNumber: 45,
  DuplicateSequenceNumber: 46,
  InvalidProducerEpoch: 47,
  TransactionalIdAuthorizationFailed: 53,
  UnknownProducerId: 59,
} as const;

export type ErrorCodeValue = (typeof ErrorCode)[keyof typeof ErrorCode];
