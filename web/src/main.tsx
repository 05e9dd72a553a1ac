import './theme/contract.css.ts';
import './theme/global.css.ts';
import { StrictMode } from 'react';
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

createRoot(root).render(
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
);
