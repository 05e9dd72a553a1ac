import { preload } from 'swr';
import { api } from '../lib/api.ts';
import { storage } from '../lib/storage.ts';
import { type Screen, byPath, normalPath } from './routes.ts';

/**
 * The screens' chunks (route-level code splitting: each screen is its own chunk, shown by
 * `React.lazy` in App.tsx). The keys are routes.ts's screens and each imports the module
 * `screenModules` names (an import() needs its path literally).
 */
const loaders = {
  landing: () => import('../features/landing/LandingPage.tsx'),
  login: () => import('../features/auth/LoginPage.tsx'),
  register: () => import('../features/auth/RegisterPage.tsx'),
  naverCallback: () => import('../features/auth/NaverCallback.tsx'),
  order: () => import('../features/order/OrderPage.tsx'),
  massOrder: () => import('../features/mass-order/MassOrderPage.tsx'),
  point: () => import('../features/point/PointPage.tsx'),
  account: () => import('../features/account/AccountPage.tsx'),
  orderHistory: () => import('../features/history/OrderHistoryPage.tsx'),
  autoOrderHistory: () => import('../features/history/AutoOrderHistoryPage.tsx'),
  qna: () => import('../features/qna/QnaPage.tsx'),
  apiDocs: () => import('../features/api-docs/ApiPage.tsx'),
  priceList: () => import('../features/price-list/PriceListPage.tsx'),
  serviceTerms: () => import('../features/terms/ServiceTermsPage.tsx'),
  privacy: () => import('../features/terms/PrivacyPage.tsx'),
  support: () => import('../features/support/SupportPage.tsx'),
  supportTicket: () => import('../features/support/TicketPage.tsx'),
} satisfies Record<Screen, () => Promise<unknown>>;

type ScreenModule<S extends Screen> = Awaited<ReturnType<(typeof loaders)[S]>>;

const loaded = new Map<Screen, unknown>();

function load<S extends Screen>(screen: S): Promise<ScreenModule<S>> {
  return loaders[screen]().then((module) => {
    loaded.set(screen, module);
    return module as ScreenModule<S>;
  });
}

/**
 * A screen's loader for `React.lazy`. Once its chunk has loaded (preloadScreen below starts the
 * opened page's with the entry) the module is handed over synchronously, and lazy renders the
 * screen in the same pass as the layout around it. Given a promise, resolved or not, lazy suspends
 * once and the screen follows the layout in a render, layout and paint of its own — its first
 * paint ~150 ms later under a phone's CPU, and one more long task.
 */
export function lazyScreen<S extends Screen>(screen: S): () => Promise<ScreenModule<S>> {
  return () => {
    if (!loaded.has(screen)) return load(screen);
    const module = loaded.get(screen) as ScreenModule<S>;
    // A thenable that calls back at once (React's lazy accepts any thenable; a promise would call
    // back on a later microtask, after lazy has suspended).
    return { then: (resolve: (m: ScreenModule<S>) => unknown) => resolve(module) } as Promise<ScreenModule<S>>;
  };
}

/**
 * Starts fetching, for the page being opened, what every page needs (the site settings, and the
 * profile when a token is kept: the same keys as lib/settings.ts and auth/auth.tsx), its screen's
 * chunk and the data it reads first (routes.ts; a member's only when a token is kept). SWR
 * `preload`: the `useSWR` of the same key takes the request already under way, so the screen's
 * first render has its data instead of rendering again when it comes. A failure here changes
 * nothing: the screen loads and asks again as it would have.
 */
export function preloadScreen(pathname: string): void {
  const fetcher = (path: string) => api(path);
  preload('/service/settings', fetcher).catch(() => undefined);
  const token = storage.token();
  if (token) preload(['/auth/profile', token], ([path]: [string]) => api(path)).catch(() => undefined);
  const entry = byPath[normalPath(pathname)];
  if (!entry) return;
  load(entry.screen).catch(() => undefined);
  for (const key of [...(entry.data ?? []), ...(token ? (entry.memberData ?? []) : [])]) preload(key, fetcher).catch(() => undefined);
}
