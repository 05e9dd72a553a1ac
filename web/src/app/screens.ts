import { preload } from 'swr';
import { api } from '../lib/api.ts';
import { storage } from '../lib/storage.ts';

/**
 * The screens' chunks (route-level code splitting: each screen is its own chunk, loaded by
 * `React.lazy` in App.tsx). Named here so that the entry can start loading the chunk of the page
 * being opened at once, alongside the profile, instead of after the profile answered and the
 * routes rendered (one round trip less before a reloaded page shows).
 */
export const screens = {
  landing: () => import('../features/landing/LandingPage.tsx'),
  login: () => import('../features/auth/LoginPage.tsx'),
  register: () => import('../features/auth/RegisterPage.tsx'),
  naverCallback: () => import('../features/auth/NaverCallback.tsx'),
  order: () => import('../features/order/OrderPage.tsx'),
  point: () => import('../features/point/PointPage.tsx'),
  account: () => import('../features/account/AccountPage.tsx'),
  orderHistory: () => import('../features/history/OrderHistoryPage.tsx'),
  autoOrderHistory: () => import('../features/history/AutoOrderHistoryPage.tsx'),
  qna: () => import('../features/qna/QnaPage.tsx'),
  apiDocs: () => import('../features/api-docs/ApiPage.tsx'),
  priceList: () => import('../features/price-list/PriceListPage.tsx'),
  serviceTerms: () => import('../features/terms/ServiceTermsPage.tsx'),
  privacy: () => import('../features/terms/PrivacyPage.tsx'),
} as const;

type Screen = keyof typeof screens;

/** The chunk behind each path of App.tsx's routes, and the public data its screen reads first. */
const byPath: Record<string, { screen: Screen; data?: string[] }> = {
  '/': { screen: 'landing' },
  '/login': { screen: 'login' },
  '/register': { screen: 'register' },
  '/register/naver': { screen: 'register' },
  '/register/kakao': { screen: 'register' },
  '/order': { screen: 'order', data: ['/service/notices', '/service/platforms', '/service/categorys', '/service/services'] },
  '/point': { screen: 'point' },
  '/account': { screen: 'account' },
  '/order-history': { screen: 'orderHistory' },
  '/auto-order-history': { screen: 'autoOrderHistory' },
  '/qna': { screen: 'qna', data: ['/service/qnas'] },
  '/api': { screen: 'apiDocs' },
  '/price-list': { screen: 'priceList', data: ['/service/platforms', '/service/categorys', '/service/services'] },
  '/terms/service': { screen: 'serviceTerms' },
  '/terms/privacy': { screen: 'privacy' },
};

/**
 * Starts fetching, for the page being opened, what every page needs (the site settings, and the
 * profile when a token is kept: the same keys as lib/settings.ts and auth/auth.tsx), its screen's
 * chunk and the catalogue-like data it asks for first (SWR `preload`: the `useSWR` of the same key
 * takes the request already under way). A failure here changes nothing: the screen loads and asks
 * again as it would have.
 */
export function preloadScreen(pathname: string): void {
  const fetcher = (path: string) => api(path);
  preload('/service/settings', fetcher).catch(() => undefined);
  const token = storage.token();
  if (token) preload(['/auth/profile', token], ([path]: [string]) => api(path)).catch(() => undefined);
  const entry = byPath[pathname.length > 1 ? pathname.replace(/\/+$/, '') : pathname];
  if (!entry) return;
  screens[entry.screen]().catch(() => undefined);
  for (const key of entry.data ?? []) preload(key, fetcher).catch(() => undefined);
}
