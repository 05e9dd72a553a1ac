import { describe, expect, it } from 'vitest';
import { byPath, normalPath, screenModules } from '../src/app/routes.ts';
import { lazyScreen } from '../src/app/screens.ts';

describe("the screens' loaders", () => {
  it('hand a loaded screen over at once, so React renders it in the same pass as the layout', async () => {
    const first = lazyScreen('serviceTerms')();
    expect(first).toBeInstanceOf(Promise);
    const module = await first;
    expect(typeof module.default).toBe('function');

    let handed: unknown;
    void lazyScreen('serviceTerms')().then((m) => (handed = m));
    // Called back before this line runs: no microtask in between, where React's lazy would suspend.
    expect(handed).toBe(module);
  });

  it('name a screen for every route, each with a module of its own', () => {
    for (const [path, route] of Object.entries(byPath)) {
      expect(screenModules[route.screen], path).toMatch(/^features\/.+\.tsx$/);
      expect(normalPath(path), path).toBe(path);
    }
    expect(normalPath('/order-history/')).toBe('/order-history');
    expect(normalPath('/')).toBe('/');
    expect(normalPath('//')).toBe('/');
  });
});
