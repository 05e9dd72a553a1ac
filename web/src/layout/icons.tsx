/** Small inline icons used by the shell (no icon font, no network). */
import type { ReactNode } from 'react';
type P = { size?: number };
const svg = (size: number, d: ReactNode) => (
  <svg width={size} height={size} viewBox="0 0 24 24" fill="none" stroke="currentColor" strokeWidth="2" strokeLinecap="round" strokeLinejoin="round" aria-hidden="true" focusable="false">
    {d}
  </svg>
);
export const MenuIcon = ({ size = 22 }: P) => svg(size, <path d="M4 7h16M4 12h16M4 17h16" />);
export const CloseIcon = ({ size = 22 }: P) => svg(size, <path d="M6 6l12 12M18 6L6 18" />);
export const SunIcon = ({ size = 20 }: P) =>
  svg(size, <><circle cx="12" cy="12" r="4" /><path d="M12 2v2M12 20v2M4.9 4.9l1.4 1.4M17.7 17.7l1.4 1.4M2 12h2M20 12h2M4.9 19.1l1.4-1.4M17.7 6.3l1.4-1.4" /></>);
export const MoonIcon = ({ size = 20 }: P) => svg(size, <path d="M21 12.8A9 9 0 1 1 11.2 3a7 7 0 0 0 9.8 9.8z" />);
export const ChatIcon = ({ size = 20 }: P) => svg(size, <path d="M12 3C6.5 3 2 6.6 2 11c0 2.8 1.8 5.2 4.5 6.6L5.5 21l4-2.4c.8.2 1.6.3 2.5.3 5.5 0 10-3.6 10-8S17.5 3 12 3z" />);
export const CheckIcon = ({ size = 18 }: P) => svg(size, <path d="M5 12l5 5L20 7" />);
export const CopyIcon = ({ size = 16 }: P) => svg(size, <><rect x="9" y="9" width="12" height="12" rx="2" /><path d="M5 15V5a2 2 0 0 1 2-2h10" /></>);
export const ChevronIcon = ({ size = 18 }: P) => svg(size, <path d="M6 9l6 6 6-6" />);
export const ArrowLeftIcon = ({ size = 20 }: P) => svg(size, <path d="M15 18l-6-6 6-6" />);
export const ArrowRightIcon = ({ size = 20 }: P) => svg(size, <path d="M9 18l6-6-6-6" />);
export const BoltIcon = ({ size = 24 }: P) => svg(size, <path d="M13 2L4 14h7l-1 8 9-12h-7l1-8z" />);
export const RepeatIcon = ({ size = 24 }: P) => svg(size, <><path d="M17 2l4 4-4 4" /><path d="M3 11V9a3 3 0 0 1 3-3h15" /><path d="M7 22l-4-4 4-4" /><path d="M21 13v2a3 3 0 0 1-3 3H3" /></>);
export const ShieldIcon = ({ size = 24 }: P) => svg(size, <><path d="M12 2l8 3v6c0 5-3.4 9.4-8 11-4.6-1.6-8-6-8-11V5l8-3z" /><path d="M8.5 12l2.5 2.5 4.5-5" /></>);
export const MegaphoneIcon = ({ size = 20 }: P) => svg(size, <><path d="M3 11v2a1 1 0 0 0 1 1h2l5 4V6L6 10H4a1 1 0 0 0-1 1z" /><path d="M15.5 8.5a5 5 0 0 1 0 7" /><path d="M18.5 5.5a9 9 0 0 1 0 13" /></>);
