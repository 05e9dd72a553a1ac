import { config } from '../../lib/config.ts';
import { storage } from '../../lib/storage.ts';

/**
 * Downloads a file the BFF answers behind the operator's token (a plain link could not send the
 * authorization header): fetched as a blob and saved through a temporary object URL.
 */
export async function download(path: string, fallbackName: string): Promise<void> {
  const token = storage.token();
  const response = await fetch(`${config.apiBase}${path}`, { headers: token ? { authorization: `Bearer ${token}` } : {} });
  if (!response.ok) throw new Error(`download answered ${response.status}`);
  const name = /filename="([^"]+)"/.exec(response.headers.get('content-disposition') ?? '')?.[1] ?? fallbackName;
  const url = URL.createObjectURL(await response.blob());
  const anchor = document.createElement('a');
  anchor.href = url;
  anchor.download = name;
  document.body.append(anchor);
  anchor.click();
  anchor.remove();
  setTimeout(() => URL.revokeObjectURL(url), 10_000);
}
