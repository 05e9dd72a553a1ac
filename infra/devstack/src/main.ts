import { fileURLToPath } from 'node:url';
import { readDevstackConfig } from './config.ts';
import { StartupError, runDevstack } from './stack.ts';

const root = fileURLToPath(new URL('../../../', import.meta.url));
const config = readDevstackConfig();

const stopRequested = new Promise<NodeJS.Signals>((resolve) => {
  for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP'] as const) process.once(signal, () => resolve(signal));
});

// The lines a child's chunk of output held (it writes its lines gathered, see the platform's
// logger) go out in one write too.
let pending: string[] = [];
const print = (line: string) => {
  if (pending.length === 0) {
    queueMicrotask(() => {
      const text = `${pending.join('\n')}\n`;
      pending = [];
      process.stdout.write(text);
    });
  }
  pending.push(line);
};

try {
  const code = await runDevstack(config, root, {
    print,
    colour: process.stdout.isTTY === true && process.env.NO_COLOR === undefined,
    stopRequested,
  });
  process.exit(code);
} catch (error) {
  if (!(error instanceof StartupError)) throw error;
  process.stderr.write(`${error.message}\n`);
  process.exit(2);
}
