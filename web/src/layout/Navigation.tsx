import { useEffect, useRef, useState } from 'react';
import { NavLink, Link, useLocation, useNavigate } from 'react-router-dom';
import { useAuth } from '../auth/auth.tsx';
import { config } from '../lib/config.ts';
import { won } from '../lib/format.ts';
import { keys, useSettings } from '../lib/settings.ts';
import { useTheme } from '../theme/theme.tsx';
import { CloseIcon, MenuIcon, MoonIcon, SunIcon } from './icons.tsx';
import * as s from './layout.css.ts';
import { shellText as t } from './messages.ts';
import { isOperatorRole } from '../lib/contracts.ts';
import { useSupportUnread } from './support-unread.ts';

/** `unread`: a count shown as a mark beside the entry (answers to support tickets). */
type Entry = { to: string; label: string; unread?: number } | { action: () => void; label: string };

function useEntries(): Entry[] {
  const auth = useAuth();
  const settings = useSettings();
  const navigate = useNavigate();
  const unread = useSupportUnread();
  if (auth.isMember) {
    const list: Entry[] = [
      { to: '/order', label: t.order },
      { to: '/mass-order', label: t.massOrder },
      { to: '/order-history', label: t.orderHistory },
      { to: '/auto-order-history', label: t.autoOrderHistory },
      { to: '/point', label: t.topUp },
    ];
    if (settings.enabled(keys.enablePriceList)) list.push({ to: '/price-list', label: t.priceList });
    if (settings.enabled(keys.enableQna)) list.push({ to: '/qna', label: t.qna });
    list.push({ to: '/support', label: t.support, unread });
    if (isOperatorRole(auth.profile?.role)) list.push({ to: '/admin', label: t.console });
    return list;
  }
  return [
    { to: '/login', label: t.login },
    { to: '/register', label: t.register },
    {
      label: t.browse,
      action: () => {
        auth.browseAsGuest();
        navigate('/order');
      },
    },
  ];
}

function EntryLink({ entry, className, onDone }: { entry: Entry; className: string; onDone?: () => void }) {
  if ('to' in entry)
    return (
      <NavLink to={entry.to} className={className} onClick={onDone} end={entry.to !== '/support'}>
        {entry.label}
        {entry.unread ? (
          <span className={s.unreadMark} data-testid="support-unread" aria-label={t.supportUnread(entry.unread)} role="status">
            {entry.unread > 9 ? '9+' : entry.unread}
          </span>
        ) : null}
      </NavLink>
    );
  return (
    <button
      type="button"
      className={className}
      onClick={() => {
        entry.action();
        onDone?.();
      }}
    >
      {entry.label}
    </button>
  );
}

function Balance({ onDone }: { onDone?: () => void }) {
  const { profile } = useAuth();
  return (
    <Link to="/point" className={s.balance} aria-label={`${t.balance} ${won(profile?.pointDeci ?? 0)}, ${t.topUp}`} onClick={onDone} data-testid="nav-balance">
      <span>{won(profile?.pointDeci ?? 0)}</span>
      <span className={s.topUpBadge} aria-hidden="true">
        {t.topUpBadge}
      </span>
    </Link>
  );
}

function ThemeToggle() {
  const { dark, toggle } = useTheme();
  return (
    <button type="button" className={s.iconButton} onClick={toggle} aria-label={dark ? t.toLight : t.toDark} aria-pressed={dark} title={dark ? t.toLight : t.toDark}>
      {dark ? <SunIcon /> : <MoonIcon />}
    </button>
  );
}

/** Spec §2 navigation bar: inline above 1280 px, a hamburger menu with the same entries below. */
export function Navigation() {
  const auth = useAuth();
  const entries = useEntries();
  const unread = entries.some((entry) => 'unread' in entry && (entry.unread ?? 0) > 0);
  const [open, setOpen] = useState(false);
  const location = useLocation();
  const toggleRef = useRef<HTMLButtonElement>(null);
  const panelRef = useRef<HTMLDivElement>(null);

  useEffect(() => setOpen(false), [location.pathname]);
  useEffect(() => {
    if (!open) return;
    panelRef.current?.querySelector<HTMLElement>('a, button')?.focus();
    const onKey = (event: KeyboardEvent) => {
      if (event.key === 'Escape') {
        setOpen(false);
        toggleRef.current?.focus();
      }
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, [open]);

  const logoTarget = auth.isMember || auth.isGuest ? '/order' : '/';
  const close = () => setOpen(false);

  return (
    <header className={s.header}>
      <div className={s.headerInner}>
        <Link to={logoTarget} className={s.logo} aria-label={`${config.displayName} 홈`}>
          <img src={config.logo} alt="" className={s.logoImg} width={32} height={32} />
          <span>{config.displayName}</span>
        </Link>
        <nav aria-label={t.mainMenu} style={{ display: 'contents' }}>
          <ul className={s.navList}>
            {entries.map((entry) => (
              <li key={entry.label}>
                <EntryLink entry={entry} className={s.navLink} />
              </li>
            ))}
            {auth.isMember && (
              <li className={s.navRight}>
                <Balance />
                <NavLink to="/account" className={s.navLink}>
                  {t.account}
                </NavLink>
                <NavLink to="/logout" className={s.navLink}>
                  {t.logout}
                </NavLink>
              </li>
            )}
          </ul>
        </nav>
        <span className={s.spacer} />
        <ThemeToggle />
        <button
          ref={toggleRef}
          type="button"
          className={s.hamburger}
          aria-expanded={open}
          aria-controls="mobile-menu"
          aria-label={open ? t.menuClose : t.menuOpen}
          onClick={() => setOpen((v) => !v)}
        >
          {open ? <CloseIcon /> : <MenuIcon />}
          {unread && !open && <span className={s.menuDot} aria-hidden="true" />}
        </button>
      </div>
      {open && (
        <div id="mobile-menu" className={s.mobilePanel} ref={panelRef}>
          <nav aria-label={`${t.mainMenu} (모바일)`}>
            <ul className={s.mobileList}>
              {auth.isMember && (
                <li style={{ padding: '4px 0 8px' }}>
                  <Balance onDone={close} />
                </li>
              )}
              {entries.map((entry) => (
                <li key={entry.label}>
                  <EntryLink entry={entry} className={s.mobileLink} onDone={close} />
                </li>
              ))}
              {auth.isMember && (
                <>
                  <li>
                    <NavLink to="/account" className={s.mobileLink} onClick={close}>
                      {t.account}
                    </NavLink>
                  </li>
                  <li>
                    <NavLink to="/logout" className={s.mobileLink} onClick={close}>
                      {t.logout}
                    </NavLink>
                  </li>
                </>
              )}
            </ul>
          </nav>
        </div>
      )}
    </header>
  );
}
