import './theme/contract.css.ts';
import './theme/global.css.ts';
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { BrowserRouter } from 'react-router-dom';
import { SWRConfig } from 'swr';
import { App } from './app/App.tsx';
import { AuthProvider } from './auth/auth.tsx';
import { swrConfig } from './lib/swr.ts';
import { ThemeProvider } from './theme/theme.tsx';
import { ToastProvider } from './ui/toast.tsx';

const root = document.getElementById('root');
if (!root) throw new Error('#root missing from index.html');

createRoot(root).render(
  <StrictMode>
    <SWRConfig value={swrConfig}>
      <BrowserRouter>
        <ThemeProvider>
          <ToastProvider>
            <AuthProvider>
              <App />
            </AuthProvider>
          </ToastProvider>
        </ThemeProvider>
      </BrowserRouter>
    </SWRConfig>
  </StrictMode>,
);
