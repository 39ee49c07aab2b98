/**
 * The portfolio screens' browser settings (docs/portfolio.md, "Browser storage"), each
 * read through the typed codecs of `shared/lib/storage` and followed live (this tab and
 * others): the currency mode, the lock, the holdings' sort and the last orderable cash.
 */
import { useSyncExternalStore } from 'react';
import { useStoredValue } from '@/shared/hooks/useStoredValue';
import {
  type CurrencyMode,
  type PortfolioSort,
  readStorage,
  removeStorage,
  subscribeStorage,
  writeStorage,
} from '@/shared/lib/storage';
import type { CurrencyParam } from '../api/keys';

// --- currency mode -----------------------------------------------------------------------

export const DEFAULT_CURRENCY_MODE: CurrencyMode = 'ORIGINAL';

/** `ORIGINAL` → `original`, `KRW` → `KRW`, `USD` → `USD` (what `?currency=` takes). */
export function currencyParam(mode: CurrencyMode): CurrencyParam {
  return mode === 'ORIGINAL' ? 'original' : mode;
}

export function useCurrencyMode(): [CurrencyMode, (mode: CurrencyMode) => void] {
  const [mode = DEFAULT_CURRENCY_MODE, setMode] = useStoredValue('PORTFOLIO_CURRENCY_MODE');
  return [mode, setMode];
}

// --- sort --------------------------------------------------------------------------------

export const DEFAULT_SORT: PortfolioSort = { key: 'value', dir: 'desc' };

let sortRaw: string | undefined;
let sortValue: PortfolioSort = DEFAULT_SORT;

/** The same object while the stored value is unchanged (`useSyncExternalStore` needs it). */
function sortSnapshot(): PortfolioSort {
  const stored = readStorage('PORTFOLIO_SORT');
  const raw = stored ? `${stored.key}:${stored.dir}` : undefined;
  if (raw !== sortRaw) {
    sortRaw = raw;
    sortValue = stored ?? DEFAULT_SORT;
  }
  return sortValue;
}

const subscribeSort = (onChange: () => void) =>
  subscribeStorage((key) => {
    if (key === null || key === 'PORTFOLIO_SORT') onChange();
  });

export function useHoldingsSort(): [PortfolioSort, (sort: PortfolioSort) => void] {
  const sort = useSyncExternalStore(subscribeSort, sortSnapshot, () => DEFAULT_SORT);
  return [sort, (next) => void writeStorage('PORTFOLIO_SORT', next)];
}

// --- orderable cash ----------------------------------------------------------------------

/** The last orderable cash seen (KRW), shown before the network answers. */
export function useCachedOrderableCash(): string | undefined {
  return useStoredValue('KB_ORDERABLE_CASH_AMOUNT')[0];
}

/** Remembers a KRW orderable cash (the key holds won only; other currencies are not kept). */
export function rememberOrderableCash(amount: string, currency: string): void {
  if (currency !== 'KRW' || !/^\d+(\.\d+)?$/.test(amount)) return;
  if (readStorage('KB_ORDERABLE_CASH_AMOUNT') !== amount) writeStorage('KB_ORDERABLE_CASH_AMOUNT', amount);
}

/**
 * Keeps the cache in step with an orderable cash just saved: a KRW amount is remembered;
 * a cleared one, or one in another currency, drops the remembered won amount (it would
 * otherwise show, stale, before the network answers next time).
 */
export function storeSavedOrderableCash(cash: { amount: string; currency: string } | null): void {
  if (cash && cash.currency === 'KRW') rememberOrderableCash(cash.amount, cash.currency);
  else removeStorage('KB_ORDERABLE_CASH_AMOUNT');
}
