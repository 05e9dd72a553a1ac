// Error texts exactly as Redis 7.0 spells them; clients and tests match on these strings.
export const E = {
  wrongType: 'WRONGTYPE Operation against a key holding the wrong kind of value',
  notInt: 'ERR value is not an integer or out of range',
  notFloat: 'ERR value is not a valid float',
  syntax: 'ERR syntax error',
  overflow: 'ERR increment or decrement would overflow',
  noKey: 'ERR no such key',
  hashNotInt: 'ERR hash value is not an integer',
  minMaxNotFloat: 'ERR min or max is not a float',
  nan: 'ERR resulting score is not a number (NaN)',
  notPositive: 'ERR value is out of range, must be positive',
  dbRange: 'ERR DB index is out of range',
} as const;

export function arityError(name: string): string {
  return `ERR wrong number of arguments for '${name}' command`;
}

export function invalidExpire(cmd: string): string {
  return `ERR invalid expire time in '${cmd}' command`;
}

export function unknownCommand(name: string, args: readonly string[]): string {
  let s = '';
  for (const a of args) {
    if (s.length >= 128) break;
    s += `'${a.slice(0, 128 - s.length)}' `;
  }
  return `ERR unknown command '${name.slice(0, 128)}', with args beginning with: ${s}`;
}

export function unknownSubcommand(sub: string, cmd: string): string {
  return `ERR unknown subcommand '${sub.slice(0, 128)}'. Try ${cmd.toUpperCase()} HELP.`;
}
