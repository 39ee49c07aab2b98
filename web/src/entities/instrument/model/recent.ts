/**
 * Recently viewed stocks (`MOAT_RECENT_STOCKS_2`, docs/market.md): instrument ids, newest
 * first, no duplicates, at most {@link MAX_RECENT_STOCKS}. Anything unreadable in storage
 * reads as an empty list; stray entries (not ids, repeats, beyond the cap) are dropped.
 */
import { recentList } from '@/shared/lib/recent-list';
import type { InstrumentId } from '../api/types';
import { isInstrumentId } from './ids';

/** How many recently viewed stocks are kept. */
export const MAX_RECENT_STOCKS = 20;

const stocks = recentList<InstrumentId>('MOAT_RECENT_STOCKS_2', MAX_RECENT_STOCKS, (s) => (isInstrumentId(s) ? s : null));

/** `list` with `id` moved (or added) to the front, deduplicated and capped. */
export const withRecent = stocks.with;
/** The stored list, cleaned; `[]` when absent or corrupt. */
export const readRecentStocks = stocks.read;
/** Records a visit to `id`'s page. */
export const addRecentStock = stocks.add;
/** Removes one id from the list. */
export const removeRecentStock = stocks.remove;
/** Forgets every recently viewed stock. */
export const clearRecentStocks = stocks.clear;
/** The recently viewed stocks, following storage (this tab and others). */
export const useRecentStocks = stocks.use;
