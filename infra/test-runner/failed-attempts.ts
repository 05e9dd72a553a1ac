// A vitest setup file (every package's vitest config adds it, through vitest-retries.ts): prints each failed attempt of a
// test as it happens. With CI's retry, vitest itself reports a test that passed on its second try
// only as "(retry x1)", without what made the first try fail; this keeps that failure in the log.
import { afterEach } from 'vitest';

afterEach((context) => {
  const result = context.task.result;
  if (result?.state !== 'fail') return;
  const errors = (result.errors ?? []).map((e) => `${e.message}\n${e.stack ?? ''}`).join('\n');
  console.error(`[failed attempt ${(result.retryCount ?? 0) + 1}] ${context.task.file?.name ?? ''} > ${context.task.name}\n${errors}`);
});
