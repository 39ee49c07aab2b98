import type { MessageShape } from '@/shared/i18n/types';
import type { stockPageKo } from './ko';

/** English messages of a stock's page frame, loaded only when English is chosen. */
export const stockPageEn = {
  meta: {
    title: '{{name}} ({{ticker}}) price — Moat',
    description: 'Live price, chart and key figures of {{name}} ({{ticker}}).',
    fallbackTitle: 'Stock — Moat',
    fallbackDescription: 'Live price, chart and key figures.',
  },
  notFound: {
    title: 'Stock not found',
    body: 'The address is wrong, or this instrument is no longer listed.',
    search: 'Search stocks',
  },
  loadFailed: 'Could not load this stock.',
  retry: 'Try again',
} satisfies MessageShape<typeof stockPageKo>;
