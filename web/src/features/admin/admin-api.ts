import { config } from '../../lib/config.ts';
import { storage } from '../../lib/storage.ts';

/**
 * Downloads a file the BFF answers behind the operator's token (a plain link could not send the
 * authorization header): fetched as a blob and saved through a temporary object URL.
 */
export async function download(path: string, fallbackName: string): Promise<string> {
  const token = storage.token();
  const response = await fetch(`${config.apiBase}${path}`, { headers: token ? { authorization: `Bearer ${token}` } : {} });
  if (!response.ok) throw new Error(`download answered ${response.status}`);
  // A Korean file name comes as RFC 5987 `filename*=UTF-8''…` (issue 41's exports), else plain.
  const disposition = response.headers.get('content-disposition') ?? '';
  const encoded = /filename\*=UTF-8''([^;]+)/i.exec(disposition)?.[1];
  const name = encoded ? decodeURIComponent(encoded) : (/filename="([^"]+)"/.exec(disposition)?.[1] ?? fallbackName);
  const url = URL.createObjectURL(await response.blob());
  const anchor = document.createElement('a');
  anchor.href = url;
  anchor.download = name;
  document.body.append(anchor);
  anchor.click();
  anchor.remove();
  setTimeout(() => URL.revokeObjectURL(url), 10_000);
  return name;
}
