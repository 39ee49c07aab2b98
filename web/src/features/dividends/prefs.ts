/**
 * The page's stored choices (docs/portfolio.md, "Browser storage"): the calendar's
 * country (`MOAT_DIVIDEND_COUNTRY`) and whether amounts are hidden
 * (`MOAT_META_PORTFOLIO_LOCK`, shared with the portfolio screens). Both follow storage,
 * so a change in another tab or by the app shows at once.
 */
import { useSyncExternalStore } from 'react';
import { readStorage, subscribeStorage, writeStorage, type CountryFilter, type StorageName } from '@/shared/lib/storage';

function subscribeTo(key: StorageName) {
  return (onChange: () => void) =>
    subscribeStorage((changed) => {
      if (changed === null || changed === key) onChange();
    });
}

const subscribeCountry = subscribeTo('MOAT_DIVIDEND_COUNTRY');
const subscribeLock = subscribeTo('MOAT_META_PORTFOLIO_LOCK');

const readCountry = (): CountryFilter => readStorage('MOAT_DIVIDEND_COUNTRY') ?? 'ALL';
const readLock = (): boolean => readStorage('MOAT_META_PORTFOLIO_LOCK') ?? false;

/** The calendar's country filter (`ALL` until chosen). */
export function useDividendCountry(): [CountryFilter, (country: CountryFilter) => void] {
  const country = useSyncExternalStore(subscribeCountry, readCountry, () => 'ALL' as const);
  return [country, (next) => void writeStorage('MOAT_DIVIDEND_COUNTRY', next)];
}

/** Whether every amount is masked. */
export function useAmountsLocked(): [boolean, (locked: boolean) => void] {
  const locked = useSyncExternalStore(subscribeLock, readLock, () => false);
  return [locked, (next) => void writeStorage('MOAT_META_PORTFOLIO_LOCK', next)];
}

/** The member's figures' currency: the portfolio screens' choice when it is one, else won. */
export function initialDividendCurrency(): 'KRW' | 'USD' {
  return readStorage('PORTFOLIO_CURRENCY_MODE') === 'USD' ? 'USD' : 'KRW';
}
