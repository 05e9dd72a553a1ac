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

/** State letter and start time (clock ticks since boot) of a process, from Linux's /proc; undefined elsewhere. */
function procStat(pid: number): { state: string; start: string } | undefined {
  try {
    const stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
    // "pid (comm) state ppid ..." — comm may hold spaces and parentheses, so read after the last ')'.
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return { state: fields[0] ?? '', start: fields[19] ?? '' };
  } catch {
    return undefined;
  }
}

/**
 * Whether the lock's holder still runs. A SIGKILLed server whose parent has not yet waited for it
 * is a zombie: kill(pid, 0) still succeeds, but it holds nothing (the outside check restarted one
 * second after a SIGKILL and was refused). A pid reused by another process has another start time.
 */
function holderAlive(pid: number, start: string | undefined): boolean {
  try {
    process.kill(pid, 0);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'EPERM') return false;
  }
  const stat = procStat(pid);
  if (!stat) return true;
  if (stat.state === 'Z' || stat.state === 'X' || stat.state === 'x') return false;
  return !start || stat.start === start;
}

/** Takes the directory's lock; returns a function that releases it. */
export function lockDataDir(dir: string): () => void {
  const file = path.join(dir, LOCK_FILE);
  const token = `${process.pid}\n${procStat(process.pid)?.start ?? ''}\n`;
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
      const [pidLine, start] = fs.readFileSync(file, 'utf8').split('\n');
      const owner = Number.parseInt(pidLine ?? '', 10);
      if (Number.isInteger(owner) && owner > 0 && holderAlive(owner, start)) {
        throw new DataDirError(`data dir ${dir} is in use by another embedded-redis (pid ${owner})`);
      }
      fs.rmSync(file, { force: true });
    }
  }
  throw new DataDirError(`cannot lock data dir ${dir}`);
}
