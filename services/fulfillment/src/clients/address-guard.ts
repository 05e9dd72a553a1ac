import { lookup } from 'node:dns/promises';
import { isIP } from 'node:net';
import { isLocalName, isPrivateAddress } from '../domain/private-address.ts';

/**
 * Why a provider URL may not be called (its host is, or resolves to, a loopback or private
 * address), or null when it may. A name that does not resolve is left to the call itself to fail.
 * The check resolves the name before the call and `fetch` resolves it again: a resolver that
 * answers differently the second time is not caught here (the deployment's egress rules are the
 * last line for that).
 */
export async function privateTarget(url: string): Promise<string | null> {
  let host: string;
  try {
    host = new URL(url).hostname.replace(/^\[(.*)\]$/, '$1');
  } catch {
    return 'not a URL';
  }
  if (isLocalName(host)) return `${host} is this machine`;
  if (isIP(host) !== 0) return isPrivateAddress(host) ? `${host} is a loopback or private address` : null;
  let addresses: Array<{ address: string }>;
  try {
    addresses = await lookup(host, { all: true, verbatim: true });
  } catch {
    return null;
  }
  const inside = addresses.find((a) => isPrivateAddress(a.address));
  return inside ? `${host} resolves to ${inside.address}, a loopback or private address` : null;
}
