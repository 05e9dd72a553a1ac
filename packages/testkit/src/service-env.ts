/**
 * Environment for the service processes and devstacks the suites start: a consumer's idle fetch
 * waits 300 ms on the broker instead of kafkajs's 5 s, which is also how long stopping it takes
 * (packages/platform `consumerMaxWait`), so a service stops in a fraction of a second instead of
 * ~5 s, and a devstack, which stops its processes one after another, in a few seconds instead of
 * ~30. The vitest configs set the same for services started inside the test process.
 */
export const testServiceEnv = { KAFKA_CONSUMER_MAX_WAIT_MS: '300' } as const;
