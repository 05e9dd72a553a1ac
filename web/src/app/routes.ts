import { pagedKey } from '../lib/paged-keys.ts';

/**
 * The screens of App.tsx's routes as plain data: the module of each screen (under src/), and the
 * screen and the data it reads first behind each path. Read by the app (screens.ts: the opened page's
 * chunk and data start loading with the entry) and by the build (vite.config.ts `routePages`: each
 * path gets an HTML page that preloads its screen's chunk and style sheets along with the entry).
 * screens.ts imports the same modules by name; the build fails when a module named here has no chunk.
 */
export const screenModules = {
  landing: 'features/landing/LandingPage.tsx',
  login: 'features/auth/LoginPage.tsx',
  register: 'features/auth/RegisterPage.tsx',
  naverCallback: 'features/auth/NaverCallback.tsx',
  order: 'features/order/OrderPage.tsx',
  massOrder: 'features/mass-order/MassOrderPage.tsx',
  point: 'features/point/PointPage.tsx',
  account: 'features/account/AccountPage.tsx',
  orderHistory: 'features/history/OrderHistoryPage.tsx',
  autoOrderHistory: 'features/history/AutoOrderHistoryPage.tsx',
  qna: 'features/qna/QnaPage.tsx',
  apiDocs: 'features/api-docs/ApiPage.tsx',
  priceList: 'features/price-list/PriceListPage.tsx',
  serviceTerms: 'features/terms/ServiceTermsPage.tsx',
  privacy: 'features/terms/PrivacyPage.tsx',
  support: 'features/support/SupportPage.tsx',
  supportTicket: 'features/support/TicketPage.tsx',
} as const;

export type Screen = keyof typeof screenModules;

/**
 * `data`: the public data the screen reads first; `memberData`: what it reads first for a signed-in
 * member (SWR keys, fetched with the entry when a token is kept).
 */
export type RouteScreen = { screen: Screen; data?: string[]; memberData?: string[] };

/** The screen behind each path and the data it reads first. */
export const byPath: Readonly<Record<string, RouteScreen>> = {
  '/': { screen: 'landing' },
  '/login': { screen: 'login' },
  '/register': { screen: 'register' },
  '/register/naver': { screen: 'register' },
  '/register/kakao': { screen: 'register' },
  '/order': { screen: 'order', data: ['/service/notices', '/service/platforms', '/service/categorys', '/service/services'] },
  '/mass-order': { screen: 'massOrder', data: ['/service/services'] },
  '/point': { screen: 'point', memberData: [pagedKey('/service/point-history', 1)] },
  '/account': { screen: 'account', memberData: [pagedKey('/auth/referrals', 1, null, 10)] },
  '/order-history': { screen: 'orderHistory', memberData: [pagedKey('/service/order-history', 1), '/service/fulfillment-flags'] },
  '/auto-order-history': { screen: 'autoOrderHistory', memberData: [pagedKey('/service/auto-order-history', 1)] },
  '/qna': { screen: 'qna', data: ['/service/qnas'] },
  '/api': { screen: 'apiDocs' },
  '/price-list': { screen: 'priceList', data: ['/service/platforms', '/service/categorys', '/service/services'] },
  '/terms/service': { screen: 'serviceTerms' },
  '/terms/privacy': { screen: 'privacy' },
  '/support': { screen: 'support', memberData: [pagedKey('/support/tickets', 1)] },
};

/** A pathname as the routes match it: without trailing slashes (`/` stays `/`). */
export const normalPath = (pathname: string) => (pathname.length > 1 ? pathname.replace(/\/+$/, '') || '/' : pathname);
