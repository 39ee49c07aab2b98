/**
 * The page's stored choices (docs/portfolio.md, "Browser storage"): the calendar's
 * country (`MOAT_DIVIDEND_COUNTRY`), followed live. Whether amounts are hidden is the
 * member's (`entities/member`'s `useAmountsLocked`), shared with the portfolio screens.
 */
import { useStoredValue } from '@/shared/hooks/useStoredValue';
import { readStorage, type CountryFilter } from '@/shared/lib/storage';

/** The calendar's country filter (`ALL` until chosen). */
export function useDividendCountry(): [CountryFilter, (country: CountryFilter) => void] {
  const [country = 'ALL', setCountry] = useStoredValue('MOAT_DIVIDEND_COUNTRY');
  return [country, setCountry];
}

/** The member's figures' currency: the portfolio screens' choice when it is one, else won. */
export function initialDividendCurrency(): 'KRW' | 'USD' {
  return readStorage('PORTFOLIO_CURRENCY_MODE') === 'USD' ? 'USD' : 'KRW';
}
