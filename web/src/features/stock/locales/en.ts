import type { MessageShape } from '@/shared/i18n/types';
import type { stockKo } from './ko';

/** English messages of the stock page, loaded only when English is chosen. */
export const stockEn = {
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
  favorite: {
    add: 'Add to favourites',
    remove: 'Remove from favourites',
    login: 'Log in to add to favourites',
    added: 'Added to favourites.',
    removed: 'Removed from favourites.',
    failed: 'Could not save your favourites.',
    full: 'You can keep up to {{max}} favourites.',
  },
  chart: {
    title: 'Chart',
    ranges: 'Period',
    range: {
      '1D': '1D',
      '1W': '1W',
      '1M': '1M',
      '3M': '3M',
      '1Y': '1Y',
      '5Y': '5Y',
    },
    modes: 'Chart type',
    line: 'Line',
    candle: 'Candles',
    empty: 'No chart data to show.',
    credit: 'Charts by TradingView Lightweight Charts',
    failed: 'Could not load the chart.',
    open: 'Open',
    high: 'High',
    low: 'Low',
    close: 'Close',
    volume: 'Volume',
  },
  figures: {
    title: 'Key figures',
    previousClose: 'Previous close',
    open: 'Open',
    dayRange: 'Day range',
    week52Range: '52-week range',
    volume: 'Volume',
    marketCap: 'Market cap',
    dividendYield: 'Dividend yield',
  },
} as const satisfies MessageShape<typeof stockKo>;
