import { pino } from 'pino';
import type { Logger } from 'pino';

export type { Logger } from 'pino';

export type LoggerOptions = {
  service: string;
  level?: string;
  /** Where lines go; defaults to stdout, gathered (see GatheredLines). Tests pass a stream to read what was logged. */
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
    destination ?? stdoutLines(),
  );
}

/** A child logger that stamps every line with the correlation id of the work it belongs to. */
export function withCorrelation(logger: Logger, correlationId: string, extra: Record<string, unknown> = {}): Logger {
  return logger.child({ correlationId, ...extra });
}

/** How long a line may wait for others before it is written. */
const GATHER_MS = 100;
/** Written at once past this many characters. */
const GATHER_MAX = 16 * 1024;

/**
 * Lines written together, at most GATHER_MS after the first of them (or once GATHER_MAX characters
 * wait): one system call for the several lines an order writes across a service (request, placement,
 * payment), instead of one each — and a reader (the devstack, a container runtime) reads them in one
 * too. The writes themselves are synchronous (pino's sonic-boom, which rides out a full pipe), and
 * whatever waits is written when the process exits, also after an uncaught error; only a SIGKILL
 * loses the last tenth of a second of lines. The timer runs only while lines wait.
 */
export class GatheredLines {
  private parts: string[] = [];
  private size = 0;
  private timer: NodeJS.Timeout | undefined = undefined;

  constructor(private readonly out: { write(chunk: string): unknown }) {}

  write(line: string): boolean {
    this.parts.push(line);
    this.size += line.length;
    if (this.size >= GATHER_MAX) this.flush();
    else if (this.timer === undefined) this.timer = setTimeout(() => this.flush(), GATHER_MS).unref();
    return true;
  }

  /** Writes what waits (pino's `logger.flush(cb)` lands here). */
  flush(done?: (error?: Error) => void): void {
    if (this.timer !== undefined) clearTimeout(this.timer);
    this.timer = undefined;
    if (this.parts.length > 0) {
      const chunk = this.parts.length === 1 ? (this.parts[0] as string) : this.parts.join('');
      this.parts = [];
      this.size = 0;
      this.out.write(chunk);
    }
    done?.();
  }
}

let stdout: GatheredLines | undefined;

/** The process's one gathered stdout, flushed when the process exits. */
function stdoutLines(): GatheredLines {
  if (!stdout) {
    const lines = new GatheredLines(pino.destination({ dest: 1, sync: true }));
    process.once('exit', () => lines.flush());
    stdout = lines;
  }
  return stdout;
}
