import { Suspense, lazy, useEffect } from 'react';
import { Link, NavLink, Navigate, Outlet, Route, Routes, useLocation } from 'react-router-dom';
import { useAuth } from '../../auth/auth.tsx';
import { type MemberRole, isOperatorRole } from '../../lib/contracts.ts';
import { useTheme } from '../../theme/theme.tsx';
import { LoadingOverlay } from '../../ui/loading.tsx';
import * as ui from '../../ui/ui.css.ts';
import * as s from './admin.css.ts';
import { Forbidden } from './Forbidden.tsx';
import { adminText as t } from './messages.ts';
import { roleLabel, screensFor } from './permissions.ts';

const Dashboard = lazy(() => import('./dashboard/DashboardPage.tsx'));
const TopUps = lazy(() => import('./top-ups/TopUpsPage.tsx'));
const Deposits = lazy(() => import('./deposits/DepositsPage.tsx'));
const Orders = lazy(() => import('./orders/OrdersPage.tsx'));
const Members = lazy(() => import('./members/MembersPage.tsx'));
const Member = lazy(() => import('./members/MemberPage.tsx'));
const Providers = lazy(() => import('./providers/ProvidersPage.tsx'));
const Review = lazy(() => import('./review/ReviewPage.tsx'));
const Requests = lazy(() => import('./requests/RequestsPage.tsx'));
const Subscriptions = lazy(() => import('./subscriptions/SubscriptionsPage.tsx'));
const Catalogue = lazy(() => import('./catalogue/CataloguePage.tsx'));
const Content = lazy(() => import('./catalogue/ContentPage.tsx'));
const Settings = lazy(() => import('./catalogue/SettingsPage.tsx'));
const Audit = lazy(() => import('./audit/AuditPage.tsx'));
const Profit = lazy(() => import('./profit/ProfitPage.tsx'));
const Exports = lazy(() => import('./exports/ExportsPage.tsx'));
const Staff = lazy(() => import('./staff/StaffPage.tsx'));
const SupportQueue = lazy(() => import('./support/SupportQueuePage.tsx'));
const SupportTicket = lazy(() => import('./support/SupportTicketPage.tsx'));
const SavedReplies = lazy(() => import('./support/SavedRepliesPage.tsx'));

/**
 * The operator console under /admin (issue 12), one lazily loaded chunk so members' bundles do not
 * grow. Visitors go to the login form; signed-in members get the 403 screen.
 */
export default function AdminApp() {
  const auth = useAuth();
  const location = useLocation();
  if (!auth.isMember) return <Navigate to="/login" replace state={{ from: location.pathname }} />;
  const role = auth.profile?.role;
  if (!isOperatorRole(role)) return <Forbidden />;
  const operatorRole = role as MemberRole;
  const first = screensFor(operatorRole, auth.profile?.areas)[0]?.path ?? 'dashboard';
  return (
    <Routes>
      <Route element={<ConsoleLayout role={operatorRole} />}>
        <Route index element={<Navigate to={first} replace />} />
        <Route path="dashboard" element={<Dashboard />} />
        <Route path="top-ups" element={<TopUps />} />
        <Route path="deposits" element={<Deposits />} />
        <Route path="orders" element={<Orders />} />
        <Route path="members" element={<Members />} />
        <Route path="members/:userId" element={<Member role={operatorRole} />} />
        <Route path="review" element={<Review />} />
        <Route path="exports" element={<Exports />} />
        {operatorRole === 'admin' && <Route path="profit" element={<Profit />} />}
        <Route path="support" element={<SupportQueue />} />
        <Route path="support/replies" element={<SavedReplies role={operatorRole} />} />
        <Route path="support/:id" element={<SupportTicket />} />
        <Route path="requests" element={<Requests />} />
        <Route path="subscriptions" element={<Subscriptions />} />
        {operatorRole === 'admin' && <Route path="providers" element={<Providers />} />}
        {operatorRole === 'admin' && <Route path="catalogue" element={<Catalogue />} />}
        {operatorRole === 'admin' && <Route path="content" element={<Content />} />}
        {operatorRole === 'admin' && <Route path="settings" element={<Settings />} />}
        {operatorRole === 'admin' && <Route path="audit" element={<Audit />} />}
        {operatorRole === 'admin' && <Route path="staff" element={<Staff />} />}
        {/* Absolute: relative to a splat route, "top-ups" would resolve under the unknown path and loop. */}
        <Route path="*" element={<Navigate to={`/admin/${first}`} replace />} />
      </Route>
    </Routes>
  );
}

function ConsoleLayout({ role }: { role: MemberRole }) {
  const auth = useAuth();
  const theme = useTheme();
  const { pathname } = useLocation();
  const screens = screensFor(role, auth.profile?.areas);
  useEffect(() => {
    const screen = screens.find((x) => pathname.startsWith(`/admin/${x.path}`));
    document.title = screen ? `${screen.label} · ${t.consoleName}` : t.consoleName;
  }, [pathname, screens]);
  return (
    <div className={s.shell}>
      <a href="#console-main" className="sr-only">
        {t.skip}
      </a>
      <nav className={s.side} aria-label={t.consoleNav}>
        <div className={s.brand}>
          <span className={s.brandMark} aria-hidden="true">
            S
          </span>
          {t.consoleName}
        </div>
        {screens.map((screen) => (
          <NavLink key={screen.path} to={`/admin/${screen.path}`} className={s.navLink}>
            {screen.label}
          </NavLink>
        ))}
        <div className={s.sideFoot}>
          <Link to="/order" className={s.navLink}>
            {t.toMemberSite}
          </Link>
          <Link to="/logout" className={s.navLink}>
            {t.logout}
          </Link>
        </div>
      </nav>
      <div className={s.main}>
        <header className={s.topBar}>
          <button type="button" className={`${ui.button.ghost} ${ui.small}`} onClick={theme.toggle}>
            {theme.dark ? t.toLight : t.toDark}
          </button>
          <span className={s.who} data-testid="operator">
            {auth.profile?.id}
            <span className={role === 'admin' ? ui.badge.primary : ui.badge.neutral}>{roleLabel(role)}</span>
          </span>
        </header>
        <main id="console-main" className={s.content} tabIndex={-1}>
          <Suspense fallback={<LoadingOverlay force />}>
            <Outlet />
          </Suspense>
        </main>
      </div>
    </div>
  );
}
