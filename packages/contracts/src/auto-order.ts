/**
 * The bounds of an auto order (spec §5 sets the floors; the ceilings keep a typo such as an
 * interval of 1e9 minutes from being accepted and charged): at most 1,000 runs, at most 30 days
 * between runs. The order service enforces them; the order screen checks the same before sending.
 */
export const autoOrderLimits = {
  minRuns: 2,
  maxRuns: 1_000,
  minIntervalMinutes: 60,
  maxIntervalMinutes: 43_200,
} as const;
