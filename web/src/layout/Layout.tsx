import { Suspense, lazy, useEffect } from 'react';
import { Outlet, useLocation } from 'react-router-dom';
import { useAuth } from '../auth/auth.tsx';
import { config } from '../lib/config.ts';
import { useLoadedAndIdle } from '../lib/idle.ts';
import { LoadingOverlay } from '../ui/loading.tsx';
import { ChatButton, Footer, LandscapeBanner, StatusBar, useChatLink } from './Chrome.tsx';
import * as s from './layout.css.ts';
import { Navigation } from './Navigation.tsx';
import { WarningNotice } from './WarningNotice.tsx';

/**
 * The live stream's code and connection: a member's, loaded once the page is idle (LiveUpdates.tsx).
 * A chunk that cannot be loaded (a deploy replaced it) leaves the page as it is, without updates.
 */
const LiveUpdates = lazy(() => import('./LiveUpdates.tsx').catch(() => ({ default: () => null })));

/** Page titles, so screen-reader users and tabs tell the screens apart. */
const titles: Record<string, string> = {
  '/': '소셜 마케팅 패널',
  '/login': '로그인',
  '/register': '회원가입',
  '/register/naver': '네이버 회원가입',
  '/register/kakao': '카카오 회원가입',
  '/order': '주문하기',
  '/point': '포인트 충전',
  '/account': '계정 설정',
  '/order-history': '주문 내역',
  '/auto-order-history': '자동 주문 내역',
  '/qna': '자주 묻는 질문',
  '/api': 'API 문서',
  '/price-list': '가격표',
  '/terms/service': '이용약관',
  '/terms/privacy': '개인정보처리방침',
  '/support': '1:1 문의',
};

export function Layout() {
  const { pathname } = useLocation();
  const chat = useChatLink() !== null;
  const member = useAuth().isMember;
  const idle = useLoadedAndIdle();
  useEffect(() => {
    const title = titles[pathname];
    document.title = title ? `${title} · ${config.displayName}` : config.displayName;
    window.scrollTo?.(0, 0);
  }, [pathname]);
  return (
    <div className={s.shell}>
      <a href="#main" className="sr-only">
        본문 바로가기
      </a>
      <LandscapeBanner />
      <Navigation />
      <StatusBar />
      <WarningNotice />
      <main id="main" className={s.main} tabIndex={-1}>
        <Suspense fallback={<LoadingOverlay force />}>
          <Outlet />
        </Suspense>
      </main>
      <Footer roomForChat={chat} />
      <ChatButton />
      {member && idle && (
        <Suspense fallback={null}>
          <LiveUpdates />
        </Suspense>
      )}
    </div>
  );
}
