import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';
import { compileEntries } from '../src/compile.ts';

const root = fileURLToPath(new URL('../../../', import.meta.url));
const fixtures = fileURLToPath(new URL('fixtures/compiled/', import.meta.url));
const entry = join(fixtures, 'entry.ts');
const bases: string[] = [];
const freshBase = () => {
  const base = mkdtempSync(join(tmpdir(), 'devstack-build-'));
  bases.push(base);
  return base;
};
afterEach(() => {
  for (const base of bases.splice(0)) rmSync(base, { recursive: true, force: true });
});

const run = (script: string) => JSON.parse(execFileSync(process.execPath, ['--enable-source-maps', script], { encoding: 'utf8' })) as Record<string, string>;

describe('compiling the devstack’s children', () => {
  it('runs under plain node with our modules compiled in, npm packages loaded where they are installed, and source names in stack traces', async () => {
    const { child } = await compileEntries(root, { child: entry }, freshBase());
    const out = run(child!);
    // import.meta.url still names each source file, so paths built from it point where they did.
    expect(out.url).toBe(pathToFileURL(entry).href);
    expect(out.helper).toBe(pathToFileURL(join(fixtures, 'helper.ts')).href);
    expect(out.zod).toBe('loaded');
    expect(out.frame).toContain(`${entry}:5:`);
    // zod is imported from node_modules, not copied in.
    const code = readFileSync(child!, 'utf8');
    expect(code).toMatch(/from "\/[^"]*\/node_modules\/zod\//);
    expect(code).not.toContain('ZodError');
  });

  it('puts the same output in the same folder, even for two stacks at once, and keeps only the newest few earlier ones', async () => {
    const base = freshBase();
    const [first, second] = await Promise.all([compileEntries(root, { child: entry }, base), compileEntries(root, { child: entry }, base)]);
    expect(second).toEqual(first);
    expect(readdirSync(base)).toEqual([dirname(first!.child!).split('/').at(-1)]);
    // Six different outputs (the entry under six names): the current one and four before it stay.
    let last: Record<string, string> = {};
    for (let i = 0; i < 6; i++) last = await compileEntries(root, { [`child${i}`]: entry }, base);
    expect(readdirSync(base)).toHaveLength(5);
    expect(run(last.child5!).zod).toBe('loaded');
  });

  it('refuses source that does not compile, naming the file', async () => {
    await expect(compileEntries(root, { broken: join(fixtures, 'missing.ts') }, freshBase())).rejects.toThrow(/missing\.ts/);
  });
});
