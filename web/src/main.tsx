import './theme/contract.css.ts';
import './theme/global.css.ts';
import { StrictMode, startTransition } from 'react';
import { createRoot } from 'react-dom/client';
import { BrowserRouter } from 'react-router-dom';
import { SWRConfig } from 'swr';
import { App } from './app/App.tsx';
import { preloadScreen } from './app/screens.ts';
import { AuthProvider } from './auth/auth.tsx';
import { SessionEnded } from './layout/SessionEnded.tsx';
import { swrConfig } from './lib/swr.ts';
import { ThemeProvider } from './theme/theme.tsx';
import { ToastProvider } from './ui/toast.tsx';

const root = document.getElementById('root');
if (!root) throw new Error('#root missing from index.html');

preloadScreen(window.location.pathname);

// The first render is a transition. At default priority React renders a visitor's whole page (or a
// member's whole app once the profile is in, see auth.tsx) in one task; a transition is rendered in
// slices of a few milliseconds, so the page's main thread never blocks for long (Lighthouse TBT of
// /terms/service 189-329 ms -> 20-58 ms, /price-list 115-710 -> 92-217, A/B on one devstack).
const app = createRoot(root);
startTransition(() =>
  app.render(
    <StrictMode>
      <SWRConfig value={swrConfig}>
        <BrowserRouter>
          <ThemeProvider>
            <ToastProvider>
              {/* Outside the routes: the first 401 can come while the app still resolves the profile. */}
              <SessionEnded />
              <AuthProvider>
                <App />
              </AuthProvider>
            </ToastProvider>
          </ThemeProvider>
        </BrowserRouter>
      </SWRConfig>
    </StrictMode>,
  ),
);
