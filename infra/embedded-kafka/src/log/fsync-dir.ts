import fs from 'node:fs';

/** Makes a new or renamed directory entry durable; fdatasync of a file does not cover its name. */
export function fsyncDir(dir: string): void {
  const fd = fs.openSync(dir, 'r');
  try {
    fs.fsyncSync(fd);
  } finally {
    fs.closeSync(fd);
  }
}
