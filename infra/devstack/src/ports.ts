import { createServer } from 'node:net';

/** Resolves true when nothing listens on host:port. */
function isFree(port: number, host: string): Promise<boolean> {
  return new Promise((resolve) => {
    const probe = createServer();
    probe.once('error', () => resolve(false));
    probe.listen(port, host, () => probe.close(() => resolve(true)));
  });
}

/**
 * The preferred port when it is free, so addresses stay the same from one start to the next and
 * tools like kcat or redis-cli can be pointed at them; otherwise any free port.
 */
export async function pickPort(preferred: number, host: string): Promise<number> {
  if (preferred > 0 && (await isFree(preferred, host))) return preferred;
  return new Promise((resolve, reject) => {
    const probe = createServer();
    probe.once('error', reject);
    probe.listen(0, host, () => {
      const address = probe.address();
      const port = typeof address === 'object' && address ? address.port : 0;
      probe.close(() => resolve(port));
    });
  });
}
