/**
 * Every area of the app, one line each. The router, the navigation (side bar, phone tab
 * bar, 전체), the route modals and the screens that combine areas (home, a stock's page,
 * the header) are built from this list; the order here does not matter (each entry and
 * slot has its own `order`). Adding an area: its folder under `features/`, its `index.ts`,
 * and one line here (README, "How to add an area").
 */
import { authArea } from '@/features/auth';
import { dividendsArea } from '@/features/dividends';
import { favoritesArea } from '@/features/favorites';
import { languageArea } from '@/features/language-picker';
import { newsArea } from '@/features/news';
import { operatorArea } from '@/features/operator';
import { overviewArea } from '@/features/overview';
import { portfolioArea } from '@/features/portfolio';
import { searchArea } from '@/features/search';
import { settingsArea } from '@/features/settings';
import { stockArea } from '@/features/stock';
import type { Area } from '@/shared/area/types';

export const AREAS: readonly Area[] = [
  portfolioArea,
  dividendsArea,
  favoritesArea,
  newsArea,
  overviewArea,
  stockArea,
  searchArea,
  settingsArea,
  authArea,
  languageArea,
  operatorArea,
];
