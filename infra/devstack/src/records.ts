// The children's pino lines, read as records: their level and the app that wrote them.

const levelValues: Record<string, number> = { trace: 10, debug: 20, info: 30, warn: 40, error: 50, fatal: 60, silent: Number.POSITIVE_INFINITY };

/** The value pino writes for a level name (LOG_LEVEL); info for a name it does not know. */
export function levelValue(level: string): number {
  return levelValues[level] ?? 30;
}

/** A line's JSON record (a pino line), or undefined for anything else. */
function recordOf(line: string): Record<string, unknown> | undefined {
  try {
    const record: unknown = JSON.parse(line);
    return typeof record === 'object' && record !== null ? (record as Record<string, unknown>) : undefined;
  } catch {
    return undefined;
  }
}

/** The `service` of a pino line, if it is a record that names one. */
export function recordService(line: string): string | undefined {
  const service = line.startsWith('{') ? recordOf(line)?.service : undefined;
  return typeof service === 'string' ? service : undefined;
}

/** A pino line's level; lines that are not JSON records count as errors, so they are never hidden. */
export function recordLevel(line: string): number {
  const level = recordOf(line)?.level;
  return typeof level === 'number' ? level : 50;
}
