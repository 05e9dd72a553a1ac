/** The provider refused the code or token (the member must sign in again). */
export class ProviderRejected extends Error {
  override name = 'ProviderRejected';
}

/** The provider could not be reached or answered with something unusable. */
export class ProviderUnavailable extends Error {
  override name = 'ProviderUnavailable';
}

const TIMEOUT_MS = 5000;

/** GETs JSON from a provider; 4xx means the provider refused us, anything else unavailable. */
export async function fetchProviderJson(url: URL, headers: Record<string, string> = {}): Promise<unknown> {
  let response: Response;
  try {
    response = await fetch(url, { headers: { accept: 'application/json', ...headers }, signal: AbortSignal.timeout(TIMEOUT_MS) });
  } catch (error) {
    throw new ProviderUnavailable(`${url.host} unreachable: ${(error as Error).message}`);
  }
  let body: unknown;
  try {
    body = await response.json();
  } catch {
    throw new ProviderUnavailable(`${url.host} answered ${response.status} without JSON`);
  }
  if (response.status >= 400 && response.status < 500) throw new ProviderRejected(`${url.host} answered ${response.status}`);
  if (!response.ok) throw new ProviderUnavailable(`${url.host} answered ${response.status}`);
  return body;
}
