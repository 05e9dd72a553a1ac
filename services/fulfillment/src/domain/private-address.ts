/**
 * Addresses a provider URL must not reach unless the operator's deployment allows it: loopback,
 * private networks, link-local (cloud metadata lives at 169.254.169.254), carrier-grade NAT,
 * "this network", multicast and reserved ranges, and their IPv6 counterparts (IPv4-mapped
 * addresses are judged as the IPv4 address they carry). Pure: the caller resolves names.
 */
const privateV4: ReadonlyArray<readonly [number, number]> = [
  [0x00000000, 8], // 0.0.0.0/8 "this network"
  [0x0a000000, 8], // 10/8
  [0x64400000, 10], // 100.64/10 carrier-grade NAT
  [0x7f000000, 8], // 127/8 loopback
  [0xa9fe0000, 16], // 169.254/16 link-local
  [0xac100000, 12], // 172.16/12
  [0xc0000000, 24], // 192.0.0/24 protocol assignments
  [0xc0a80000, 16], // 192.168/16
  [0xc6120000, 15], // 198.18/15 benchmarking
  [0xe0000000, 4], // 224/4 multicast
  [0xf0000000, 4], // 240/4 reserved and broadcast
];

function v4Number(text: string): number | null {
  const parts = text.split('.');
  if (parts.length !== 4 || !parts.every((p) => /^\d{1,3}$/.test(p) && Number(p) <= 255)) return null;
  return parts.reduce((n, p) => n * 256 + Number(p), 0);
}

function isPrivateV4(value: number): boolean {
  return privateV4.some(([base, bits]) => Math.floor(value / 2 ** (32 - bits)) === Math.floor(base / 2 ** (32 - bits)));
}

/** The eight 16-bit groups of an IPv6 address (an embedded dotted IPv4 tail allowed), or null. */
function v6Groups(text: string): number[] | null {
  let address = text.toLowerCase().replace(/%.*$/, '');
  const tail = /(\d+\.\d+\.\d+\.\d+)$/.exec(address);
  if (tail) {
    const v4 = v4Number(tail[1]!);
    if (v4 === null) return null;
    address = `${address.slice(0, -tail[1]!.length)}${(v4 >>> 16).toString(16)}:${(v4 & 0xffff).toString(16)}`;
  }
  const halves = address.split('::');
  if (halves.length > 2) return null;
  const parse = (half: string) => (half === '' ? [] : half.split(':').map((g) => (/^[0-9a-f]{1,4}$/.test(g) ? parseInt(g, 16) : Number.NaN)));
  const head = parse(halves[0]!);
  const rest = halves.length === 2 ? parse(halves[1]!) : [];
  const missing = 8 - head.length - rest.length;
  if (halves.length === 1 ? missing !== 0 : missing < 1) return null;
  const groups = [...head, ...Array<number>(halves.length === 2 ? missing : 0).fill(0), ...rest];
  return groups.some(Number.isNaN) ? null : groups;
}

/** Whether `ip` (IPv4 or IPv6 text) is an address providers may not be reached at; unparsable text counts as private. */
export function isPrivateAddress(ip: string): boolean {
  const v4 = v4Number(ip);
  if (v4 !== null) return isPrivateV4(v4);
  const g = v6Groups(ip);
  if (g === null) return true;
  const zeroHead = g.slice(0, 5).every((x) => x === 0);
  if (zeroHead && g[5] === 0xffff) return isPrivateV4(g[6]! * 65536 + g[7]!); // ::ffff:a.b.c.d
  if (zeroHead && g[5] === 0 && g[6] === 0 && (g[7] === 0 || g[7] === 1)) return true; // :: and ::1
  if ((g[0]! & 0xfe00) === 0xfc00) return true; // fc00::/7 unique local
  if ((g[0]! & 0xffc0) === 0xfe80) return true; // fe80::/10 link-local
  if ((g[0]! & 0xff00) === 0xff00) return true; // ff00::/8 multicast
  return false;
}

/** Host names that always mean this machine, whatever a resolver says. */
export const isLocalName = (host: string): boolean => {
  const name = host.toLowerCase().replace(/\.$/, '');
  return name === 'localhost' || name.endsWith('.localhost');
};
