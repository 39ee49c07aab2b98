/** The holdings' order (`PORTFOLIO_SORT`): by value, return, today's change or name. */
import type Big from 'big.js';
import { instrumentLabel } from '@/entities/instrument/model/ids';
import type { PortfolioSort, Locale } from '@/shared/lib/storage';
import { toBig } from '@/shared/lib/money';
import type { Holding } from '../api/valuation';

/** One collator per locale: making one costs more than sorting 200 names with it. */
const collators = new Map<Locale, Intl.Collator>();

function collator(locale: Locale): Intl.Collator {
  let c = collators.get(locale);
  if (!c) {
    c = new Intl.Collator(locale === 'ko' ? 'ko-KR' : 'en-US', { numeric: true, sensitivity: 'base' });
    collators.set(locale, c);
  }
  return c;
}

/**
 * `holdings` in `sort`'s order. Value compares `market_value_total` (one currency for
 * every holding, whatever the mode); return and today's change compare per cent; ties
 * and names go by the name in `locale`. Each holding's key is read once (decimals are
 * compared exactly, as big.js numbers), not once per comparison.
 */
export function sortHoldings(holdings: readonly Holding[], sort: PortfolioSort, locale: Locale): Holding[] {
  const names = collator(locale);
  const field = sort.key === 'value' ? 'market_value_total' : sort.key === 'return' ? 'return_percent' : sort.key === 'dailyChange' ? 'day_change_percent' : null;
  const keyed: Array<{ h: Holding; name: string; key: Big | null }> = holdings.map((h) => ({
    h,
    name: instrumentLabel(h, h.instrument, locale),
    key: field ? toBig(h[field]) : null,
  }));
  const sign = sort.dir === 'asc' ? 1 : -1;
  keyed.sort((a, b) => {
    const primary = a.key && b.key ? a.key.cmp(b.key) : names.compare(a.name, b.name);
    return sign * primary || names.compare(a.name, b.name);
  });
  return keyed.map((k) => k.h);
}
