import { spawn } from 'node:child_process';
import { existsSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { createInterface } from 'node:readline';

/** Inputs of the web build, relative to web/: a change in any of them makes web/dist stale. */
const inputs = ['src', 'public', 'index.html', 'package.json', 'vite.config.ts', '../packages/contracts/src'];

function newestMtime(path: string): number {
  if (!existsSync(path)) return 0;
  const stat = statSync(path);
  if (!stat.isDirectory()) return stat.mtimeMs;
  let newest = stat.mtimeMs;
  for (const entry of readdirSync(path)) newest = Math.max(newest, newestMtime(join(path, entry)));
  return newest;
}

/**
 * What to do about the web app before the BFF starts: nothing when there is no web package yet,
 * `fresh` when web/dist/index.html is newer than every source, else `build`.
 */
export function webBuildState(webDir: string): 'absent' | 'fresh' | 'build' {
  if (!existsSync(join(webDir, 'package.json'))) return 'absent';
  const built = join(webDir, 'dist', 'index.html');
  if (!existsSync(built)) return 'build';
  const sources = Math.max(...inputs.map((name) => newestMtime(join(webDir, name))));
  return sources > statSync(built).mtimeMs ? 'build' : 'fresh';
}

/**
 * Runs the web package's own `build` script (`npm run build` in web/), relaying its output, so
 * `npm start` always serves an app that matches the sources. Rejects with the exit status.
 */
export function buildWeb(webDir: string, env: Record<string, string>, print: (line: string) => void): Promise<void> {
  return new Promise((resolve, reject) => {
    const child = spawn('npm', ['run', 'build', '--silent'], { cwd: webDir, env, stdio: ['ignore', 'pipe', 'pipe'] });
    for (const stream of [child.stdout, child.stderr]) createInterface({ input: stream }).on('line', print);
    child.once('error', (error) => reject(new Error(`could not run npm to build the web app: ${error.message}`)));
    child.once('exit', (code, signal) => {
      if (code === 0) resolve();
      else reject(new Error(`the web app's build failed (${signal ?? `exit ${code}`}); run \`npm run build -w @smm/web\` to see why`));
    });
  });
}
