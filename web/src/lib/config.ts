/** Configuration constants of spec §1; vite inlines the VITE_ variables at build time. */
export const config = {
  displayName: import.meta.env.VITE_SITE_NAME ?? '그로우패널',
  apiBase: import.meta.env.VITE_API_BASE ?? '/api',
  logo: '/logo.svg',
  /** Spec §1 layout width: the navigation collapses into a hamburger menu below it. */
  layoutWidth: 1280,
} as const;

export function siteHost(): string {
  return typeof window === 'undefined' ? '' : window.location.origin;
}
