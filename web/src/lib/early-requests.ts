/**
 * Requests a page starts before the app's code has arrived: the build writes `startEarlyRequests`
 * into a small script of its own that every page loads ahead of the entry (vite.config.ts
 * `earlyRequests`), so the site settings, the profile (with a kept token) and the data the opened
 * screen reads first are under way while the entry script downloads — on a slow phone they used to
 * start only once the entry had downloaded and run, one round trip later. `api()` takes each once.
 */

/** What a route reads first (routes.ts `RouteScreen`): public data, and a member's. */
type FirstReads = { data?: string[]; memberData?: string[] };

export type EarlyRequests = { token: string | null; requests: Record<string, Promise<Response>> };

declare global {
  interface Window {
    smmEarlyRequests?: EarlyRequests;
  }
}

/**
 * Runs in the page as its own script (serialised by the build with its arguments): it may use
 * nothing from outside its body. Sends what `api()` would send for these reads (same URL, accept
 * and bearer headers); anything unexpected leaves the requests to the app.
 */
export function startEarlyRequests(routes: Record<string, FirstReads>, apiBase: string, tokenKey: string): void {
  try {
    let path = window.location.pathname;
    if (path.length > 1) path = path.replace(/\/+$/, '') || '/';
    const token = window.localStorage.getItem(tokenKey);
    const route = routes[path] ?? {};
    const headers: Record<string, string> = { accept: 'application/json' };
    let keys = ['/service/settings', ...(route.data ?? [])];
    if (token) {
      headers.authorization = `Bearer ${token}`;
      keys = [...keys, '/auth/profile', ...(route.memberData ?? [])];
    }
    const requests: Record<string, Promise<Response>> = {};
    for (const key of keys) {
      const request = fetch(apiBase + key, { headers });
      // Whoever takes it sees the failure; one never taken is not an unhandled rejection.
      request.catch(() => undefined);
      requests[key] = request;
    }
    window.smmEarlyRequests = { token, requests };
  } catch {
    // No storage or no fetch: the app makes its requests itself.
  }
}

/**
 * The early request for `path`, if the page started one with this token and nobody took it yet:
 * each is used once, so a later read of the same path asks the server again.
 */
export function takeEarlyRequest(path: string, token: string | null): Promise<Response> | undefined {
  const early = typeof window === 'undefined' ? undefined : window.smmEarlyRequests;
  if (!early || early.token !== token) return undefined;
  const request = early.requests[path];
  delete early.requests[path];
  return request;
}
