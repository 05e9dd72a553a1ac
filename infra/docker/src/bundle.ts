import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { build, type Metafile, type Plugin } from 'esbuild';

/**
 * Packages left outside the bundle. Native addons cannot be inlined (they are installed in the
 * image from dist/package.json); the rest are optional extras the MongoDB driver loads inside
 * try/catch (compression, Kerberos, cloud credentials), which we do not use and do not install.
 */
const native = ['@node-rs/argon2'];
const optional = [
  'kerberos',
  'snappy',
  '@mongodb-js/zstd',
  'mongodb-client-encryption',
  'gcp-metadata',
  'socks',
  'aws4',
  '@aws-sdk/credential-providers',
  'pino-pretty',
];

/** Bundled ESM still holds CommonJS code that calls require() and reads __dirname; give it both. */
const banner = [
  "import { createRequire as __smmCreateRequire } from 'node:module';",
  "import { fileURLToPath as __smmFileURLToPath } from 'node:url';",
  "import { dirname as __smmDirname } from 'node:path';",
  'const require = __smmCreateRequire(import.meta.url);',
  'const __filename = __smmFileURLToPath(import.meta.url);',
  'const __dirname = __smmDirname(__filename);',
].join('\n');

export type BundleResult = { outfile: string; externals: Record<string, string> };

function packageName(specifier: string): string {
  const parts = specifier.split('/');
  return specifier.startsWith('@') ? parts.slice(0, 2).join('/') : parts[0]!;
}

/** Every bare import of a native addon or an optional extra stays an import of the installed package. */
const externalise: Plugin = {
  name: 'smm-externals',
  setup(b) {
    b.onResolve({ filter: /^[^./]/ }, (args) => {
      const name = packageName(args.path);
      if (native.includes(name) || optional.includes(name)) return { path: args.path, external: true };
      return undefined;
    });
  },
};

/** The installed version of each external the bundle imports, for dist/package.json. */
function externalVersions(metafile: Metafile, packageDir: string): Record<string, string> {
  const require = createRequire(join(packageDir, 'package.json'));
  const versions: Record<string, string> = {};
  for (const output of Object.values(metafile.outputs)) {
    for (const imported of output.imports) {
      if (!imported.external || imported.path.startsWith('node:')) continue;
      const name = packageName(imported.path);
      if (!native.includes(name)) continue;
      const manifest = require.resolve(`${name}/package.json`);
      versions[name] = (JSON.parse(readFileSync(manifest, 'utf8')) as { version: string }).version;
    }
  }
  return versions;
}

/**
 * Compiles a service's (or the BFF's) `src/main.ts` with everything it imports — our packages and
 * their npm dependencies — into one ES module, `dist/main.js`, so the image needs no TypeScript,
 * no tsx and no node_modules beyond the native addons listed in `dist/package.json`.
 */
export async function bundlePackage(packageDir: string): Promise<BundleResult> {
  const entry = join(packageDir, 'src', 'main.ts');
  if (!existsSync(entry)) throw new Error(`${packageDir} has no src/main.ts to build`);
  const dist = join(packageDir, 'dist');
  rmSync(dist, { recursive: true, force: true });
  mkdirSync(dist, { recursive: true });
  const outfile = join(dist, 'main.js');
  const result = await build({
    entryPoints: [entry],
    outfile,
    bundle: true,
    platform: 'node',
    format: 'esm',
    target: 'node20',
    sourcemap: true,
    metafile: true,
    logLevel: 'warning',
    banner: { js: banner },
    plugins: [externalise],
  });
  const externals = externalVersions(result.metafile, packageDir);
  const manifest = { name: `${(JSON.parse(readFileSync(join(packageDir, "package.json"), "utf8")) as { name: string }).name.replace("@smm/", "smm-")}-dist`, private: true, type: 'module', dependencies: externals };
  writeFileSync(join(dist, 'package.json'), `${JSON.stringify(manifest, null, 2)}\n`);
  return { outfile, externals };
}
