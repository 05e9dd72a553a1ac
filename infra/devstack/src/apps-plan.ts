import { z } from 'zod';

/**
 * What the devstack hands its shared apps process (apps-main.ts) on stdin: the apps to start, in
 * order, each with exactly the environment it would get as a process of its own (PORT included;
 * the `*_SERVICE_URL` of the apps before it are added as they become ready).
 */
const planSchema = z.object({
  /** How long one app may take to answer /readyz once started (the devstack's READY_TIMEOUT_MS). */
  readyTimeoutMs: z.number().int().positive(),
  apps: z.array(
    z.object({
      name: z.string(),
      env: z.record(z.string(), z.string()),
      /** The operator fixed this port (BFF_PORT): a taken port is an error, not a reason to move. */
      fixedPort: z.boolean(),
      /** PUBLIC_BASE_URL was derived from the port (no deployment value): it moves with the port. */
      baseUrlFollowsPort: z.boolean(),
    }),
  ),
});

export type AppsPlan = z.infer<typeof planSchema>;

export function appsPlan(json: string): AppsPlan {
  return planSchema.parse(JSON.parse(json));
}
