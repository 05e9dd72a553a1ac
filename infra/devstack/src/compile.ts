import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readdirSync, renameSync, rmSync, statSync, utimesSync, writeFileSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { isBuiltin } from 'node:module';
import { dirname, join, relative, sep } from 'node:path';
import { pathToFileURL } from 'node:url';
import { type Plugin, build, stop } from 'esbuild';

/** Where compiled children live, one folder per distinct output: `infra/devstack/.build/<hash>/`. */
export const buildDir = (root: string) => join(root, 'infra', 'devstack', '.build');

let compiling = 0;

/** How many earlier outputs are kept beside the current one (a running stack may restart a child from one). */
const KEEP = 4;

/**
 * npm packages stay imports of the installed package, by the absolute path of the file Node would
 * load from the importing file's folder (a workspace with its own copy of a package keeps it);
 * only our own TypeScript is compiled in.
 */
const installedPackages: Plugin = {
  name: 'installed-packages',
  setup(b) {
    b.onResolve({ filter: /^[^./]/ }, async (args) => {
      if (isBuiltin(args.path)) return { path: args.path, external: true };
      if (args.path.startsWith('@smm/') || args.pluginData === installedPackages) return undefined;
      const found = await b.resolve(args.path, { kind: args.kind, resolveDir: args.resolveDir, importer: args.importer, pluginData: installedPackages });
      if (found.errors.length > 0) return { errors: found.errors };
      return { path: found.path, external: true };
    });
  },
};

/**
 * A module's `import.meta.url` keeps naming its source file, so paths it builds from it (the
 * BFF's web/dist) point where they did under tsx, wherever the compiled file lies.
 */
const sourceUrls = (root: string): Plugin => ({
  name: 'source-urls',
  setup(b) {
    b.onLoad({ filter: /\.ts$/ }, async (args) => {
      if (args.path.includes(`${sep}node_modules${sep}`) || relative(root, args.path).startsWith('..')) return undefined;
      const source = await readFile(args.path, 'utf8');
      return { contents: source.replaceAll('import.meta.url', JSON.stringify(pathToFileURL(args.path).href)), loader: 'ts' };
    });
  },
});

/**
 * Compiles each entry (a name and its `.ts` file) with our packages it imports into one ES
 * module, `<name>.mjs`, with a source map beside it, and returns each file's path. The devstack
 * runs its children from these rather than through tsx: a child then holds no TypeScript
 * compiler, transform cache or inline source maps (the embedded Kafka's process went from 73 to
 * 50 MB), and no esbuild helper process stays running.
 *
 * The folder is named by a hash of the output, so stacks starting at the same moment (tests) share
 * one and never see a half-written file; the newest few earlier folders are kept, the rest removed.
 */
export async function compileEntries(root: string, entries: Record<string, string>, base = buildDir(root)): Promise<Record<string, string>> {
  // Source map paths are relative to the output folder; every hash folder is at the same depth.
  const staging = join(base, 'out');
  compiling++;
  const result = await build({
    entryPoints: entries,
    outdir: staging,
    outExtension: { '.js': '.mjs' },
    bundle: true,
    platform: 'node',
    format: 'esm',
    target: 'node20',
    // Packages resolve as Node resolves them: no `module` field or condition (esbuild's defaults).
    mainFields: ['main'],
    conditions: [],
    sourcemap: 'linked',
    write: false,
    logLevel: 'silent',
    plugins: [installedPackages, sourceUrls(root)],
  }).finally(() => {
    // esbuild's helper process would otherwise stay beside the launcher for as long as it runs.
    if (--compiling === 0) void stop();
  });
  const hash = createHash('sha256');
  for (const file of result.outputFiles) hash.update(relative(staging, file.path)).update(file.contents);
  const dir = join(base, hash.digest('hex').slice(0, 16));
  if (existsSync(dir)) {
    // Marks it as in use, so the clean-up below keeps it.
    const now = new Date();
    utimesSync(dir, now, now);
  } else {
    const temporary = `${dir}.${process.pid}.tmp`;
    rmSync(temporary, { recursive: true, force: true });
    for (const file of result.outputFiles) {
      const target = join(temporary, relative(staging, file.path));
      mkdirSync(dirname(target), { recursive: true });
      writeFileSync(target, file.contents);
    }
    try {
      renameSync(temporary, dir);
    } catch (error) {
      // Another stack wrote the same output first.
      rmSync(temporary, { recursive: true, force: true });
      if (!existsSync(dir)) throw error;
    }
  }
  removeOldOutputs(base, dir);
  return Object.fromEntries(Object.keys(entries).map((name) => [name, join(dir, `${name}.mjs`)]));
}

/** Keeps the newest KEEP earlier outputs; a half-written one is left alone for ten minutes (its writer may be at work). */
function removeOldOutputs(base: string, current: string): void {
  // Another stack starting now may be removing the same folders: one gone already is skipped.
  const found = readdirSync(base, { withFileTypes: true })
    .filter((entry) => entry.isDirectory())
    .flatMap((entry) => {
      const path = join(base, entry.name);
      const at = statSync(path, { throwIfNoEntry: false })?.mtimeMs;
      return at === undefined ? [] : [{ path, at }];
    });
  const stale = found.filter(({ path, at }) => path.endsWith('.tmp') && Date.now() - at > 600_000);
  const earlier = found.filter(({ path }) => path !== current && !path.endsWith('.tmp')).sort((a, b) => b.at - a.at);
  for (const { path } of [...stale, ...earlier.slice(KEEP)]) rmSync(path, { recursive: true, force: true });
}
