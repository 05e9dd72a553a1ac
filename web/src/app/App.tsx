import { lazy } from 'react';
import { Navigate, Route, Routes } from 'react-router-dom';
import { useAuth } from '../auth/auth.tsx';
import { Layout } from '../layout/Layout.tsx';
import { keys } from '../lib/settings.ts';
import { LoadingOverlay } from '../ui/loading.tsx';
import { Logout, MemberOnly, VisitorsOnly, WhenEnabled } from './guards.tsx';

// Route-level code splitting: each screen is its own chunk (initial JS budget, issue text).
const Landing = lazy(() => import('../features/landing/LandingPage.tsx'));
const Login = lazy(() => import('../features/auth/LoginPage.tsx'));
const Register = lazy(() => import('../features/auth/RegisterPage.tsx'));
const NaverCallback = lazy(() => import('../features/auth/NaverCallback.tsx'));
const Order = lazy(() => import('../features/order/OrderPage.tsx'));
const Point = lazy(() => import('../features/point/PointPage.tsx'));
const Account = lazy(() => import('../features/account/AccountPage.tsx'));
const OrderHistory = lazy(() => import('../features/history/OrderHistoryPage.tsx'));
const AutoOrderHistory = lazy(() => import('../features/history/AutoOrderHistoryPage.tsx'));
const Qna = lazy(() => import('../features/qna/QnaPage.tsx'));
const ApiDocs = lazy(() => import('../features/api-docs/ApiPage.tsx'));
const PriceList = lazy(() => import('../features/price-list/PriceListPage.tsx'));
const ServiceTerms = lazy(() => import('../features/terms/ServiceTermsPage.tsx'));
const PrivacyPolicy = lazy(() => import('../features/terms/PrivacyPage.tsx'));

export function App() {
  const auth = useAuth();
  // Spec §2: authentication is resolved before anything renders.
  if (auth.state === 'loading') return <LoadingOverlay force />;
  return (
    <Routes>
      <Route path="/auth/naver" element={<NaverCallback />} />
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
          <Route path="/account" element={<Account />} />
          <Route path="/order-history" element={<OrderHistory />} />
          <Route path="/auto-order-history" element={<AutoOrderHistory />} />
          <Route path="/api" element={<ApiDocs />} />
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
