import type { MessageShape } from '@/shared/i18n/types';
import type { stockKo } from './ko';

/** English messages of the stock page, loaded only when English is chosen. */
export const stockEn = {
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
    previousClose: 'Prev. close',
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
  retry: 'Try again',
} as const satisfies MessageShape<typeof stockKo>;
