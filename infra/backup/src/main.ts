// `npm run backup -- <dir>` and `npm run restore -- <dir>` (root scripts). Reads MONGO_URL (a
// running server; unset = the data directory, offline) and DATA_DIR (default .data).
import { resolve } from 'node:path';
import { backup, restore } from './backup.ts';

const [command, dir] = process.argv.slice(2);
if ((command !== 'backup' && command !== 'restore') || dir === undefined) {
  process.stderr.write('usage: npm run backup -- <dir>   |   npm run restore -- <dir>\n');
  process.exit(2);
}
const cwd = process.env.INIT_CWD ?? process.cwd();
const options = { dir: resolve(cwd, dir), dataDir: resolve(cwd, process.env.DATA_DIR ?? '.data'), mongoUrl: process.env.MONGO_URL || undefined };
try {
  if (command === 'backup') {
    const manifest = await backup(options);
    const counts = Object.entries(manifest.databases).map(([db, c]) => `${db} ${Object.values(c).reduce((a, b) => a + b, 0)}`);
    process.stdout.write(`backup written to ${options.dir}: documents per database: ${counts.join(', ')}; secrets ${manifest.secrets ? 'included' : 'not found'}\n`);
  } else {
    const loaded = await restore(options);
    const counts = Object.entries(loaded).map(([db, c]) => `${db} ${Object.values(c).reduce((a, b) => a + b, 0)}`);
    process.stdout.write(`restored from ${options.dir} into ${options.mongoUrl ? 'MONGO_URL' : options.dataDir}: ${counts.join(', ')}\n`);
  }
} catch (error) {
  process.stderr.write(`${command} failed: ${(error as Error).message}\n`);
  process.exit(1);
}
