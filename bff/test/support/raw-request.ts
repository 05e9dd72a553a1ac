import { request } from 'node:http';

export type RawAnswer = { status: number; headers: Record<string, string | string[] | undefined>; body: Buffer };

/** One request whose answer is read as sent: no decoding by the client (fetch would undo the content encoding). */
export function rawRequest(url: string, options: { acceptEncoding: string }): Promise<RawAnswer> {
  return new Promise((resolve, reject) => {
    const req = request(url, { headers: { 'accept-encoding': options.acceptEncoding } }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (chunk: Buffer) => chunks.push(chunk));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks) }));
    });
    req.on('error', reject);
    req.end();
  });
}
