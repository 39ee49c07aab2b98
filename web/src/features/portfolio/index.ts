/**
 * The portfolio area: the member's portfolios, their holdings, returns, allocation and
 * transactions (`/portfolios…`), home's "my money" section, and on a stock's page the
 * 거래 기록 action and the member's position. 배당 (dividends) is a tab
 * inside it (nav group `portfolio`).
 */
import type { Area } from '@/shared/area/types';
import { lazyComponent, lazyPage } from '@/shared/area/lazy';
import { PieIcon } from '@/shared/ui/icons';

export type { portfolioKo as PortfolioMessages } from './locales/ko';

const homeMoney = () => import('./components/HomeMoney');
// The stock page's pieces share one chunk.
const stockSlots = () => import('./components/StockSlots');

// The screens share one chunk (API, settings, amount pieces); each checks for a member.
const pages = () => import('./pages');

export const portfolioArea = {
  id: 'portfolio',
  nav: { to: '/portfolios', labelKey: 'nav.portfolios', icon: PieIcon, order: 20, group: 'portfolio' },
  routes: [
    { path: '/portfolios', Page: lazyPage(pages, 'PortfolioListRoute') },
    { path: '/portfolios/:id', Page: lazyPage(pages, 'PortfolioDetailRoute') },
    { path: '/portfolios/:id/transactions/new', Page: lazyPage(pages, 'TransactionRoute') },
    { path: '/portfolios/:id/transactions/:txId', Page: lazyPage(pages, 'TransactionRoute') },
    { path: '/portfolios/:id/import', Page: lazyPage(pages, 'ImportRoute') },
  ],
  slots: {
    home: [
      { id: 'money', order: 10, ...lazyComponent(homeMoney, 'HomeMoney') },
      { id: 'invite', order: 45, ...lazyComponent(homeMoney, 'HomeInvite') },
    ],
    stockActions: [{ id: 'record-trade', order: 20, ...lazyComponent(stockSlots, 'RecordTradeAction') }],
    stockSections: [{ id: 'position', order: 10, ...lazyComponent(stockSlots, 'StockPosition') }],
  },
} as const satisfies Area;
