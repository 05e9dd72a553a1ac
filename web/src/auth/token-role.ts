/**
 * The role claim of an access token, read without verifying it: only to choose where the app goes
 * after a login (operators to the console). Every request is still authorised by the BFF.
 */
export function roleOfToken(token: string): string | null {
  const payload = token.split('.')[1];
  if (payload === undefined) return null;
  try {
    const binary = atob(payload.replace(/-/g, '+').replace(/_/g, '/').padEnd(Math.ceil(payload.length / 4) * 4, '='));
    // The payload is UTF-8 (login ids may be Korean).
    const json = new TextDecoder().decode(Uint8Array.from(binary, (c) => c.charCodeAt(0)));
    const role = (JSON.parse(json) as { role?: unknown }).role;
    return typeof role === 'string' ? role : null;
  } catch {
    return null;
  }
}
