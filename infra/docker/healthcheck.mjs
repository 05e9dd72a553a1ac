// The image's HEALTHCHECK: the slim base image has no curl, so node asks /healthz itself.
/* global process, fetch, AbortSignal */
const port = process.env.PORT ?? '8080';
try {
  const res = await fetch(`http://127.0.0.1:${port}/healthz`, { signal: AbortSignal.timeout(2500) });
  process.exit(res.ok ? 0 : 1);
} catch {
  process.exit(1);
}
