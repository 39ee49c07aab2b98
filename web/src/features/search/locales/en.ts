import type { MessageShape } from '@/shared/i18n/types';
import type { searchKo } from './ko';

/** English messages of the search page, loaded only when English is chosen. */
export const searchEn = {
  meta: {
    title: 'Search stocks — Moat',
    description: 'Find Korean and US stocks, ETFs and indices by name or ticker.',
  },
  title: 'Search stocks',
  label: 'Name, ticker or Korean initials',
  placeholder: 'e.g. Apple, AAPL, 005930',
  clearText: 'Clear search',
  results: 'Search results',
  count: '{{count}} results',
  none: 'Nothing matches “{{query}}”.',
  failed: 'Search failed. Please try again in a moment.',
  recent: {
    title: 'Recently viewed',
    all: 'See all',
    clear: 'Clear all',
    cleared: 'Recently viewed stocks cleared.',
    empty: 'No recently viewed stocks. Search by name or ticker.',
  },
  hint: 'Use ↑↓ to move and Enter to open.',
} as const satisfies MessageShape<typeof searchKo>;
