import fs from 'node:fs';
import path from 'node:path';
import { EmbeddedKafkaError } from './errors.ts';

const heldInThisProcess = new Set<string>();

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/**
 * Creates the data directory, proves it is writable and takes a pid lock so two brokers never
 * write the same logs. A lock left by a killed process (pid no longer alive) is taken over.
 */
export function acquireDataDir(dataDir: string): () => void {
  const dir = path.resolve(dataDir);
  try {
    fs.mkdirSync(dir, { recursive: true });
    fs.accessSync(dir, fs.constants.W_OK | fs.constants.R_OK);
    const probe = path.join(dir, `.probe-${process.pid}`);
    fs.writeFileSync(probe, '');
    fs.rmSync(probe);
  } catch (err) {
    throw new EmbeddedKafkaError('DATA_DIR', `data dir ${dir} is not writable: ${(err as NodeJS.ErrnoException).code ?? (err as Error).message}`);
  }
  const lock = path.join(dir, '.lock');
  if (heldInThisProcess.has(dir)) throw new EmbeddedKafkaError('DATA_DIR_LOCKED', `data dir ${dir} is in use by another broker in this process`);
  try {
    fs.writeFileSync(lock, String(process.pid), { flag: 'wx' });
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw new EmbeddedKafkaError('DATA_DIR', `cannot lock data dir ${dir}: ${(err as Error).message}`);
    const owner = Number(fs.readFileSync(lock, 'utf8').trim());
    if (Number.isInteger(owner) && owner > 0 && owner !== process.pid && alive(owner)) {
      throw new EmbeddedKafkaError('DATA_DIR_LOCKED', `data dir ${dir} is in use by process ${owner}`);
    }
    fs.writeFileSync(lock, String(process.pid));
  }
  heldInThisProcess.add(dir);
  return () => {
    heldInThisProcess.delete(dir);
    fs.rmSync(lock, { force: true });
  };
}
