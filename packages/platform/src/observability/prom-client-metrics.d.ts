// prom-client ships no types for its default metrics' own modules; each registers its series.
declare module 'prom-client/lib/metrics/*.js' {
  import type { Registry } from 'prom-client';
  const registerMetric: (registry: Registry, config: Record<string, unknown>) => void;
  export default registerMetric;
}
