import fs from 'node:fs';

/** Filesystems that cannot sync a directory say so with one of these; the data is still written. */
const UNSUPPORTED = new Set(['EINVAL', 'EISDIR', 'ENOTSUP', 'EPERM', 'EBADF']);

/** Makes a new or renamed directory entry durable; fdatasync of a file does not cover its name. */
export function fsyncDir(dir: string): void {
  let fd: number;
  try {
    fd = fs.openSync(dir, 'r');
  } catch (err) {
    if (UNSUPPORTED.has((err as NodeJS.ErrnoException).code ?? '')) return;
    throw err;
  }
  try {
    fs.fsyncSync(fd);
  } catch (err) {
    if (!UNSUPPORTED.has((err as NodeJS.ErrnoException).code ?? '')) throw err;
  } finally {
    fs.closeSync(fd);
  }
}
