import { useEffect, useRef, useState } from 'react';
import { Link } from 'react-router-dom';
import { dateTime } from '../lib/format.ts';
import { keys, useSettings } from '../lib/settings.ts';
import { useClearOfContent } from './clear-of-content.ts';
import { ChatIcon, CloseIcon } from './icons.tsx';
import * as s from './layout.css.ts';
import { shellText as t } from './messages.ts';

/** Spec §2 service-status bar: "runs normally" with a clock ticking every second (KST). */
export function StatusBar() {
  const settings = useSettings();
  const [now, setNow] = useState(() => Date.now());
  useEffect(() => {
    const timer = window.setInterval(() => setNow(Date.now()), 1000);
    return () => window.clearInterval(timer);
  }, []);
  const check = settings.enabled(keys.enableServiceCheck);
  return (
    <div className={s.statusBar} data-testid="status-bar">
      <div className={s.statusInner}>
        <span className={check ? s.statusDotWarn : s.statusDot} aria-hidden="true" />
        <span role="status">{check ? t.statusCheck : t.statusOk}</span>
        <time className={s.clock} aria-label={t.now} dateTime={new Date(now).toISOString()}>
          {dateTime(now)}
        </time>
      </div>
    </div>
  );
}

/** Spec §2 footer: company data from the settings, links to the privacy policy and terms (new tab). */
export function Footer({ roomForChat = false }: { roomForChat?: boolean }) {
  const settings = useSettings();
  const facts: Array<[string, string]> = [
    [t.company, settings.get(keys.footerCompany)],
    [t.ceo, settings.get(keys.footerCeo)],
    [t.businessNumber, settings.get(keys.footerCorporationNumber)],
    [t.marketingNumber, settings.get(keys.footerMarketingNumber)],
    [t.phone, settings.get(keys.footerCeoPhone)],
    [t.address, settings.get(keys.footerAddress)],
  ];
  return (
    <footer className={s.footer}>
      <div className={roomForChat ? `${s.footerInner} ${s.footerRoomForChat}` : s.footerInner}>
        <div className={s.footerLinks}>
          <Link to="/terms/privacy" target="_blank" rel="noopener">
            {t.privacy}
          </Link>
          <Link to="/terms/service" target="_blank" rel="noopener">
            {t.terms}
          </Link>
        </div>
        <div className={s.footerFacts}>
          {facts
            .filter(([, value]) => value)
            .map(([label, value]) => (
              <span key={label}>
                {label}: {value}
              </span>
            ))}
        </div>
        <div>© {new Date().getFullYear()} {settings.get(keys.footerCompany)}. {t.rights}</div>
      </div>
    </footer>
  );
}

/** The chat-channel link of the settings, or null when there is none (no floating button). */
export function useChatLink(): string | null {
  const href = useSettings().get(keys.chatChannelLink);
  return /^https?:\/\//i.test(href) ? href : null;
}

/** Spec §2 floating chat-channel button, only when the chat link setting exists. */
const mainContent = () => document.getElementById('main');

/**
 * Spec §2 floating chat button. It never covers a control or text: while it would, it is hidden
 * (and unfocusable); the footer keeps empty room at the bottom of every page where it shows again.
 */
export function ChatButton() {
  const settings = useSettings();
  const href = useChatLink();
  const ref = useRef<HTMLAnchorElement>(null);
  const clear = useClearOfContent(ref, mainContent, href !== null);
  if (!href) return null;
  const text = settings.get(keys.chatChannelText) || t.chatDefault;
  return (
    <a
      ref={ref}
      className={clear ? s.chat : `${s.chat} ${s.chatHidden}`}
      href={href}
      target="_blank"
      rel="noopener noreferrer"
      aria-label={`${text} (새 창)`}
      aria-hidden={clear ? undefined : true}
      tabIndex={clear ? undefined : -1}
      data-testid="chat-button"
    >
      <ChatIcon />
      <span>{text}</span>
    </a>
  );
}

const dismissKey = 'smm.landscapeDismissed';
const narrowPortrait = '(max-width: 880px) and (orientation: portrait)';

/** Spec §2 dismissible blue banner advising landscape mode on narrow screens. */
export function LandscapeBanner() {
  const [show, setShow] = useState(() => {
    if (typeof window.matchMedia !== 'function') return false;
    return window.matchMedia(narrowPortrait).matches && window.sessionStorage.getItem(dismissKey) !== '1';
  });
  useEffect(() => {
    if (typeof window.matchMedia !== 'function') return;
    const query = window.matchMedia(narrowPortrait);
    const onChange = () => setShow(query.matches && window.sessionStorage.getItem(dismissKey) !== '1');
    query.addEventListener('change', onChange);
    return () => query.removeEventListener('change', onChange);
  }, []);
  if (!show) return null;
  return (
    <div className={s.landscape} role="note">
      <span>{t.landscape}</span>
      <button
        type="button"
        className={s.landscapeClose}
        onClick={() => {
          window.sessionStorage.setItem(dismissKey, '1');
          setShow(false);
        }}
        aria-label={`안내 ${t.dismiss}`}
      >
        <CloseIcon size={14} />
      </button>
    </div>
  );
}
