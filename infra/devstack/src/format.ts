const colours = ['\x1b[36m', '\x1b[35m', '\x1b[33m', '\x1b[32m', '\x1b[34m', '\x1b[96m', '\x1b[95m', '\x1b[93m'];
const levelNames: Record<string, string> = { '10': 'TRACE', '20': 'DEBUG', '30': 'INFO', '40': 'WARN', '50': 'ERROR', '60': 'FATAL' };
const levelColours: Record<string, string> = { WARN: '\x1b[33m', ERROR: '\x1b[31m', FATAL: '\x1b[31m' };
const reset = '\x1b[0m';
const hidden = new Set(['level', 'time', 'msg', 'pid', 'hostname', 'service', 'v']);

export type Formatter = (line: string) => string;

/**
 * Turns a child's pino JSON lines into `hh:mm:ss name  LEVEL message key=value`, so several
 * processes read as one log. Lines that are not JSON pass through with the prefix.
 */
export function lineFormatter(name: string, index: number, width: number, colour: boolean): Formatter {
  const paint = (code: string | undefined, text: string) => (colour && code ? `${code}${text}${reset}` : text);
  const prefix = paint(colours[index % colours.length], name.padEnd(width));
  return (line) => {
    let record: Record<string, unknown>;
    try {
      const parsed: unknown = JSON.parse(line);
      if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) throw new Error('not a record');
      record = parsed as Record<string, unknown>;
    } catch {
      return `${clock(new Date())} ${prefix} ${line}`;
    }
    const level = levelNames[String(record.level)] ?? String(record.level ?? 'INFO').toUpperCase();
    const time = typeof record.time === 'string' || typeof record.time === 'number' ? new Date(record.time) : new Date();
    const extras = Object.entries(record)
      .filter(([key]) => !hidden.has(key))
      .map(([key, value]) => `${key}=${typeof value === 'string' ? value : JSON.stringify(value)}`)
      .join(' ');
    const message = `${String(record.msg ?? '')}${extras ? ` ${paint('\x1b[90m', extras)}` : ''}`;
    return `${clock(time)} ${prefix} ${paint(levelColours[level], level.padEnd(5))} ${message}`;
  };
}

function clock(date: Date): string {
  return Number.isNaN(date.getTime()) ? '--:--:--' : date.toTimeString().slice(0, 8);
}
