/**
 * Environment for the service processes and devstacks the suites start. Empty on purpose: with
 * KAFKA_CONSUMER_MAX_WAIT_MS=300 here (a consumer's idle fetch, and so its stop, 300 ms instead of
 * kafkajs's 5 s) the MongoDB-SIGKILL recovery test left orders awaiting their payment answer for
 * more than 60 s, in 4 of 4 runs on the merged tree (2 on a quiet machine); without it, it passes.
 * Until that is understood (docs/performance.md, "Test run"), child processes run with the
 * production default. The vitest configs still set 300 ms for services started inside the test
 * process, where every suite passes with it.
 */
export const testServiceEnv: Readonly<Record<string, string>> = {};
