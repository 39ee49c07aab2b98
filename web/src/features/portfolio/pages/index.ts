/**
 * The portfolio screens, one lazy chunk for the router (`src/app/routes.tsx`): they
 * share the API, the settings and the amount pieces. Each route checks for a member
 * (`RequireAuth`) itself.
 */
export { messagesReady } from '../locales/messages';
export { PortfolioListRoute, PortfolioListPage } from './PortfolioListPage';
export { PortfolioDetailRoute, PortfolioDetailPage } from './PortfolioDetailPage';
export { TransactionRoute, TransactionFormPage } from './TransactionFormPage';
export { ImportRoute, ImportPage } from './ImportPage';
