// Data directory preparation and an exclusive lock, so two servers never write the same
// snapshot (e.g. a devstack started twice). A lock left by a dead process is taken over.
import fs from 'node:fs';
import path from 'node:path';

export const LOCK_FILE = 'embedded-redis.lock';

export class DataDirError extends Error {}

export function prepareDataDir(dir: string): void {
  try {
    fs.mkdirSync(dir, { recursive: true });
    const probe = path.join(dir, `.write-probe-${process.pid}`);
    fs.writeFileSync(probe, '');
    fs.rmSync(probe);
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code ?? 'error';
    throw new DataDirError(`data dir ${dir} is not writable (${code})`);
  }
}

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/** Takes the directory's lock; returns a function that releases it. */
export function lockDataDir(dir: string): () => void {
  const file = path.join(dir, LOCK_FILE);
  const token = `${process.pid}\n`;
  for (let attempt = 0; attempt < 2; attempt++) {
    try {
      fs.writeFileSync(file, token, { flag: 'wx' });
      return () => {
        try {
          if (fs.readFileSync(file, 'utf8') === token) fs.rmSync(file);
        } catch {
          // Already gone: nothing to release.
        }
      };
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'EEXIST') {
        throw new DataDirError(`cannot lock data dir ${dir} (${(err as NodeJS.ErrnoException).code ?? 'error'})`);
      }
      const owner = Number.parseInt(fs.readFileSync(file, 'utf8'), 10);
      if (Number.isInteger(owner) && owner > 0 && alive(owner)) {
        throw new DataDirError(`data dir ${dir} is in use by another embedded-redis (pid ${owner})`);
      }
      fs.rmSync(file, { force: true });
    }
  }
  throw new DataDirError(`cannot lock data dir ${dir}`);
}
