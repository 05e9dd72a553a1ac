import { existsSync, readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';

/** One command of the test run: a lint, a typecheck or a test suite, run from `cwd`. */
export type Task = {
  id: string;
  cwd: string;
  command: string[];
  /**
   * A class of heavy suites never run two at a time (`infra/test-runner/heavy.json`): `stack` for
   * those starting whole devstacks or a browser, `crash` for those killing children under load.
   * One of each may run together; unclassed tasks run beside anything.
   */
  heavy: string | null;
};

type PackageJson = { name?: string; workspaces?: string[]; scripts?: Record<string, string>; testParts?: string[] };

const readJson = (path: string): PackageJson => JSON.parse(readFileSync(path, 'utf8')) as PackageJson;

/** The workspace folders of the root package.json (`dir/*` and plain folder entries), in its order. */
export function workspaceDirs(root: string): string[] {
  const dirs: string[] = [];
  for (const pattern of readJson(join(root, 'package.json')).workspaces ?? []) {
    if (pattern.endsWith('/*')) {
      const parent = join(root, pattern.slice(0, -2));
      if (!existsSync(parent)) continue;
      for (const entry of readdirSync(parent, { withFileTypes: true }).sort((a, b) => a.name.localeCompare(b.name))) {
        if (entry.isDirectory() && existsSync(join(parent, entry.name, 'package.json'))) dirs.push(join(parent, entry.name));
      }
    } else if (existsSync(join(root, pattern, 'package.json'))) {
      dirs.push(join(root, pattern));
    }
  }
  return dirs;
}

/** A workspace whose tsconfig.json only extends the base and lists folders: the shared program checks it. */
function sharesBaseOptions(dir: string): boolean {
  const path = join(dir, 'tsconfig.json');
  if (!existsSync(path)) return false;
  const config = JSON.parse(readFileSync(path, 'utf8')) as { compilerOptions?: unknown; extends?: unknown };
  return config.compilerOptions === undefined && typeof config.extends === 'string' && config.extends.endsWith('tsconfig.base.json');
}

/**
 * Every task of `npm test`: the import boundaries and ESLint once over the whole tree (one process
 * instead of one per package: the same files under the same flat config); one typecheck of every
 * workspace that uses the base compiler options as they are (`tsconfig.node.json` beside this
 * package: one program, so the shared packages are checked once instead of once per importer) and
 * a typecheck of its own for each other (the web app); then each workspace's tests — the scripts
 * named in its `testParts` when it has them (a package whose suites differ in weight splits them so
 * they can be scheduled apart), else `test`.
 */
export function discoverTasks(root: string, heavyClasses: Readonly<Record<string, readonly string[]>>): Task[] {
  const classOf = (id: string) => Object.entries(heavyClasses).find(([, ids]) => ids.includes(id))?.[0] ?? null;
  const bin = (name: string) => join(root, 'node_modules', '.bin', name);
  const tasks: Task[] = [
    { id: 'lint:boundaries', cwd: root, command: ['npm', 'run', '--silent', 'lint:boundaries'], heavy: null },
    { id: 'lint', cwd: root, command: [bin('eslint'), '.'], heavy: null },
    { id: 'typecheck', cwd: root, command: [bin('tsc'), '-p', join(root, 'infra/test-runner/tsconfig.node.json')], heavy: null },
  ];
  for (const dir of workspaceDirs(root)) {
    const pkg = readJson(join(dir, 'package.json'));
    const name = pkg.name ?? dir;
    const scripts = pkg.scripts ?? {};
    if (scripts.typecheck && !sharesBaseOptions(dir)) tasks.push({ id: `${name}:typecheck`, cwd: dir, command: ['npm', 'run', '--silent', 'typecheck'], heavy: null });
    const parts = pkg.testParts ?? (scripts.test ? ['test'] : []);
    for (const part of parts) {
      if (!scripts[part]) throw new Error(`${name}: testParts names "${part}", which is not one of its scripts`);
      const id = `${name}:${part}`;
      tasks.push({ id, cwd: dir, command: ['npm', 'run', '--silent', part], heavy: classOf(id) });
    }
  }
  return tasks;
}
