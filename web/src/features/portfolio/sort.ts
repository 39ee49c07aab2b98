/** The holdings' order (`PORTFOLIO_SORT`): by value, return, today's change or name. */
import type { PortfolioSort } from '@/shared/lib/storage';
import type { Locale } from '@/shared/lib/storage';
import { toBig } from '@/shared/lib/money';
import { instrumentNames } from '@/shared/market/ids';
import type { Holding } from './api-types';

/** Compares two decimal strings exactly. */
const byDecimal = (a: string, b: string) => toBig(a).cmp(toBig(b));

/**
 * `holdings` in `sort`'s order. Value compares `market_value_total` (one currency for
 * every holding, whatever the mode); return and today's change compare per cent; ties
 * and names go by the name in `locale`.
 */
export function sortHoldings(holdings: readonly Holding[], sort: PortfolioSort, locale: Locale): Holding[] {
  const collator = new Intl.Collator(locale === 'ko' ? 'ko-KR' : 'en-US', { numeric: true, sensitivity: 'base' });
  const name = (h: Holding) => instrumentNames(h, locale).primary || h.ticker;
  const byName = (a: Holding, b: Holding) => collator.compare(name(a), name(b));
  const primary = (a: Holding, b: Holding): number => {
    switch (sort.key) {
      case 'value':
        return byDecimal(a.market_value_total, b.market_value_total);
      case 'return':
        return byDecimal(a.return_percent, b.return_percent);
      case 'dailyChange':
        return byDecimal(a.day_change_percent, b.day_change_percent);
      case 'name':
        return byName(a, b);
    }
  };
  const sign = sort.dir === 'asc' ? 1 : -1;
  return [...holdings].sort((a, b) => sign * primary(a, b) || byName(a, b));
}
