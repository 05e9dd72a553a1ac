import { Suspense, lazy } from 'react';
import { Navigate, Route, Routes } from 'react-router-dom';
import { useAuth } from '../auth/auth.tsx';
import { Layout } from '../layout/Layout.tsx';
import { keys } from '../lib/settings.ts';
import { LoadingOverlay } from '../ui/loading.tsx';
import { Logout, MemberOnly, VisitorsOnly, WhenEnabled } from './guards.tsx';
import { lazyScreen } from './screens.ts';

// Route-level code splitting: each screen is its own chunk (initial JS budget, issue text); the
// entry starts loading the opened page's chunk before the profile answers (screens.ts).
const Landing = lazy(lazyScreen('landing'));
const Login = lazy(lazyScreen('login'));
const Register = lazy(lazyScreen('register'));
const NaverCallback = lazy(lazyScreen('naverCallback'));
const Order = lazy(lazyScreen('order'));
const Point = lazy(lazyScreen('point'));
const MassOrder = lazy(lazyScreen('massOrder'));
const Account = lazy(lazyScreen('account'));
const OrderHistory = lazy(lazyScreen('orderHistory'));
const AutoOrderHistory = lazy(lazyScreen('autoOrderHistory'));
const Qna = lazy(lazyScreen('qna'));
const ApiDocs = lazy(lazyScreen('apiDocs'));
const PriceList = lazy(lazyScreen('priceList'));
const ServiceTerms = lazy(lazyScreen('serviceTerms'));
const PrivacyPolicy = lazy(lazyScreen('privacy'));
const Support = lazy(lazyScreen('support'));
const SupportTicket = lazy(lazyScreen('supportTicket'));
// The operator console: its own layout and chunk, never loaded for members (issue 12).
const AdminApp = lazy(() => import('../features/admin/AdminApp.tsx'));

export function App() {
  const auth = useAuth();
  // Spec §2: authentication is resolved before anything renders.
  if (auth.state === 'loading') return <LoadingOverlay force />;
  return (
    <Routes>
      <Route path="/auth/naver" element={<NaverCallback />} />
      <Route
        path="/admin/*"
        element={
          <Suspense fallback={<LoadingOverlay force />}>
            <AdminApp />
          </Suspense>
        }
      />
      <Route element={<Layout />}>
        <Route path="/" element={<Landing />} />
        <Route element={<VisitorsOnly />}>
          <Route path="/login" element={<Login />} />
          <Route path="/register" element={<Register provider={null} />} />
          <Route path="/register/naver" element={<Register provider="naver" />} />
          <Route path="/register/kakao" element={<Register provider="kakao" />} />
        </Route>
        <Route path="/order" element={<Order />} />
        <Route path="/terms/service" element={<ServiceTerms />} />
        <Route path="/terms/privacy" element={<PrivacyPolicy />} />
        <Route element={<MemberOnly />}>
          <Route path="/point" element={<Point />} />
          <Route path="/mass-order" element={<MassOrder />} />
          <Route path="/account" element={<Account />} />
          <Route path="/order-history" element={<OrderHistory />} />
          <Route path="/auto-order-history" element={<AutoOrderHistory />} />
          <Route path="/api" element={<ApiDocs />} />
          <Route path="/support" element={<Support />} />
          <Route path="/support/:id" element={<SupportTicket />} />
          <Route
            path="/qna"
            element={
              <WhenEnabled setting={keys.enableQna}>
                <Qna />
              </WhenEnabled>
            }
          />
          <Route
            path="/price-list"
            element={
              <WhenEnabled setting={keys.enablePriceList}>
                <PriceList />
              </WhenEnabled>
            }
          />
          <Route path="/logout" element={<Logout />} />
        </Route>
        <Route path="*" element={<Navigate to="/order" replace />} />
      </Route>
    </Routes>
  );
}
