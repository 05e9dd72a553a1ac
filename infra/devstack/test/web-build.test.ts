import { mkdirSync, mkdtempSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { webBuildState } from '../src/web-build.ts';

const dirs: string[] = [];
afterEach(() => dirs.splice(0).forEach((dir) => rmSync(dir, { recursive: true, force: true })));

function webPackage(): string {
  const dir = mkdtempSync(join(tmpdir(), 'web-build-'));
  dirs.push(dir);
  writeFileSync(join(dir, 'package.json'), '{}');
  mkdirSync(join(dir, 'src', 'screens'), { recursive: true });
  writeFileSync(join(dir, 'src', 'screens', 'order.tsx'), 'export {}');
  return dir;
}

const at = (path: string, seconds: number) => utimesSync(path, seconds, seconds);

describe('webBuildState', () => {
  it('is absent without a web package', () => {
    const dir = mkdtempSync(join(tmpdir(), 'web-build-'));
    dirs.push(dir);
    expect(webBuildState(dir)).toBe('absent');
  });

  it('builds when there is no build yet', () => {
    expect(webBuildState(webPackage())).toBe('build');
  });

  it('is fresh when the build is newer than every source, and stale after a nested source changes', () => {
    const dir = webPackage();
    mkdirSync(join(dir, 'dist'));
    writeFileSync(join(dir, 'dist', 'index.html'), '<!doctype html>');
    for (const path of ['package.json', 'src', 'src/screens', 'src/screens/order.tsx']) at(join(dir, path), 1_000);
    at(join(dir, 'dist', 'index.html'), 2_000);
    expect(webBuildState(dir)).toBe('fresh');
    at(join(dir, 'src', 'screens', 'order.tsx'), 3_000);
    expect(webBuildState(dir)).toBe('build');
  });
});
