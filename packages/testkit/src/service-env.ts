/**
 * Environment for the service processes and devstacks the suites start: a consumer's idle fetch —
 * and so its stop — waits 300 ms instead of kafkajs's 5 s (KAFKA_CONSUMER_MAX_WAIT_MS), which the
 * in-process vitest configs set too. With it, the MongoDB-SIGKILL recovery test once left orders
 * awaiting their payment answer: a MongoDB write caught by the kill never settled and the order
 * service's payment consumer waited on it for good. Consumers now give up a handler call at a
 * deadline (`handlerTimeoutMs`, 20 s for the payment consumers) and take its events again.
 */
export const testServiceEnv: Readonly<Record<string, string>> = { KAFKA_CONSUMER_MAX_WAIT_MS: '300' };
