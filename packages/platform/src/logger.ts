import { pino } from 'pino';
import type { Logger } from 'pino';

export type { Logger } from 'pino';

export type LoggerOptions = {
  service: string;
  level?: string;
  /** Where lines go; defaults to stdout. Tests pass a stream to read what was logged. */
  destination?: NodeJS.WritableStream;
};

/** One JSON line per log call, with the service name on every line. */
export function createLogger({ service, level = 'info', destination }: LoggerOptions): Logger {
  return pino(
    {
      level,
      base: { service },
      timestamp: pino.stdTimeFunctions.isoTime,
      formatters: { level: (label) => ({ level: label }) },
    },
    destination ?? pino.destination({ dest: 1, sync: true }),
  );
}

/** A child logger that stamps every line with the correlation id of the work it belongs to. */
export function withCorrelation(logger: Logger, correlationId: string, extra: Record<string, unknown> = {}): Logger {
  return logger.child({ correlationId, ...extra });
}
