import { Suspense } from 'react';
import { Outlet } from 'react-router-dom';
import { LoadingOverlay } from '../ui/loading.tsx';
import { ChatButton, Footer, LandscapeBanner, StatusBar } from './Chrome.tsx';
import * as s from './layout.css.ts';
import { Navigation } from './Navigation.tsx';

export function Layout() {
  return (
    <div className={s.shell}>
      <a href="#main" className="sr-only">
        본문 바로가기
      </a>
      <LandscapeBanner />
      <Navigation />
      <StatusBar />
      <main id="main" className={s.main} tabIndex={-1}>
        <Suspense fallback={<LoadingOverlay force />}>
          <Outlet />
        </Suspense>
      </main>
      <Footer />
      <ChatButton />
    </div>
  );
}
