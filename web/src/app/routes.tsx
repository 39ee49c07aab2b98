import { lazy, type ComponentType } from 'react';
import { Route, Routes } from 'react-router';
import { CalendarIcon, HomeIcon, PieIcon, SettingsIcon, StarIcon, type IconProps } from '@/shared/ui/icons';
import { RouteBoundary } from './RouteBoundary';

/** What a page module gives the router: its component and, if it has its own texts, their readiness. */
type PageModule<K extends string> = Record<K, ComponentType> & { messagesReady?: Promise<void> };

/**
 * A page loaded on first visit (its own chunk), rendered once its messages for the
 * current language are registered, so it never flashes untranslated.
 */
function lazyPage<K extends string>(load: () => Promise<PageModule<K>>, name: K) {
  return lazy(async () => {
    const module = await load();
    await module.messagesReady;
    return { default: module[name] };
  });
}

const HomePage = lazyPage(() => import('@/pages/home/HomePage'), 'HomePage');
const SettingsPage = lazyPage(() => import('@/features/settings/pages/SettingsPage'), 'SettingsPage');
const StockPage = lazyPage(() => import('@/pages/stock/StockPage'), 'StockPage');
const SearchPage = lazyPage(() => import('@/features/search/pages/SearchPage'), 'SearchPage');
const FavoritesPage = lazyPage(() => import('@/features/favorites/pages/FavoritesPage'), 'FavoritesRoute');
// The operator's pages, one chunk routed inside: market data providers and the observability console.
const OperatorPages = lazyPage(() => import('@/features/operator/pages/OperatorRoutes'), 'OperatorRoutes');
const DividendsPage = lazyPage(() => import('@/features/dividends/pages/DividendsPage'), 'DividendsPage');
// The portfolio pages share one chunk; each checks for a member (`RequireAuth`).
const loadPortfolioPages = () => import('@/features/portfolio/pages');
const PortfolioListPage = lazyPage(loadPortfolioPages, 'PortfolioListRoute');
const PortfolioDetailPage = lazyPage(loadPortfolioPages, 'PortfolioDetailRoute');
const PortfolioTransactionPage = lazyPage(loadPortfolioPages, 'TransactionRoute');
const PortfolioImportPage = lazyPage(loadPortfolioPages, 'ImportRoute');
// The accounts area is one chunk (its pages share most of their code); `/settings/account`
// checks for a member inside it (`RequireAuth`).
const loadAuthPages = () => import('@/features/auth/pages');
const AUTH_ROUTES = [
  ['/login', lazyPage(loadAuthPages, 'LoginPage')],
  ['/signup', lazyPage(loadAuthPages, 'SignupPage')],
  ['/signup/social', lazyPage(loadAuthPages, 'SocialSignupPage')],
  ['/auth/complete', lazyPage(loadAuthPages, 'AuthCompletePage')],
  ['/settings/account', lazyPage(loadAuthPages, 'AccountRoute')],
  ['/u/:nickname', lazyPage(loadAuthPages, 'ProfilePage')],
] as const;
const NotFoundPage = lazyPage(() => import('@/pages/not-found/NotFoundPage'), 'NotFoundPage');

/** One entry of the navigation (side bar on wide screens, tab bar on narrow ones). */
export interface NavItem {
  to: string;
  labelKey: 'nav.home' | 'nav.portfolios' | 'nav.dividends' | 'nav.favorites' | 'nav.settings';
  icon: ComponentType<IconProps>;
  /** Active only on an exact match. */
  end?: boolean;
}

/** Only areas that exist are listed (the account pages are reached from the header, not here). */
export const NAV_ITEMS: readonly NavItem[] = [
  { to: '/', labelKey: 'nav.home', icon: HomeIcon, end: true },
  { to: '/portfolios', labelKey: 'nav.portfolios', icon: PieIcon },
  { to: '/dividends', labelKey: 'nav.dividends', icon: CalendarIcon },
  { to: '/favorites', labelKey: 'nav.favorites', icon: StarIcon },
  { to: '/settings', labelKey: 'nav.settings', icon: SettingsIcon },
];


/** The app's routes, each behind its own error boundary. */
export function AppRoutes() {
  return (
    <Routes>
      <Route path="/" element={<RouteBoundary><HomePage /></RouteBoundary>} />
      <Route path="/settings" element={<RouteBoundary><SettingsPage /></RouteBoundary>} />
      <Route path="/stocks/:id" element={<RouteBoundary><StockPage /></RouteBoundary>} />
      <Route path="/search" element={<RouteBoundary><SearchPage /></RouteBoundary>} />
      <Route path="/favorites" element={<RouteBoundary><FavoritesPage /></RouteBoundary>} />
      <Route path="/operator/*" element={<RouteBoundary><OperatorPages /></RouteBoundary>} />
      <Route path="/dividends" element={<RouteBoundary><DividendsPage /></RouteBoundary>} />
      <Route path="/portfolios" element={<RouteBoundary><PortfolioListPage /></RouteBoundary>} />
      <Route path="/portfolios/:id" element={<RouteBoundary><PortfolioDetailPage /></RouteBoundary>} />
      <Route path="/portfolios/:id/transactions/new" element={<RouteBoundary><PortfolioTransactionPage /></RouteBoundary>} />
      <Route path="/portfolios/:id/transactions/:txId" element={<RouteBoundary><PortfolioTransactionPage /></RouteBoundary>} />
      <Route path="/portfolios/:id/import" element={<RouteBoundary><PortfolioImportPage /></RouteBoundary>} />
      {AUTH_ROUTES.map(([path, Page]) => (
        <Route key={path} path={path} element={<RouteBoundary><Page /></RouteBoundary>} />
      ))}
      <Route path="*" element={<RouteBoundary><NotFoundPage /></RouteBoundary>} />
    </Routes>
  );
}
