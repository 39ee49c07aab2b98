/**
 * Recently viewed stocks (`MOAT_RECENT_STOCKS_2`, docs/market.md): instrument ids, newest
 * first, no duplicates, at most {@link MAX_RECENT_STOCKS}. Anything unreadable in storage
 * reads as an empty list; stray entries (not ids, repeats, beyond the cap) are dropped.
 */
import { useSyncExternalStore } from 'react';
import { readStorage, removeStorage, subscribeStorage, writeStorage } from '@/shared/lib/storage';
import type { InstrumentId } from '../api/types';
import { isInstrumentId } from './ids';

/** How many recently viewed stocks are kept. */
export const MAX_RECENT_STOCKS = 20;

const KEY = 'MOAT_RECENT_STOCKS_2';

/** `list` with `id` moved (or added) to the front, deduplicated and capped. */
export function withRecent(list: readonly InstrumentId[], id: InstrumentId): InstrumentId[] {
  return [id, ...list.filter((x) => x !== id)].slice(0, MAX_RECENT_STOCKS);
}

/** Keeps only well-formed ids, first occurrence of each, at most the cap. */
function clean(list: readonly string[]): InstrumentId[] {
  return [...new Set(list.filter(isInstrumentId))].slice(0, MAX_RECENT_STOCKS);
}

/** The stored list, cleaned; `[]` when absent or corrupt. */
export function readRecentStocks(): InstrumentId[] {
  return clean(readStorage(KEY) ?? []);
}

/** Records a visit to `id`'s page. */
export function addRecentStock(id: InstrumentId): void {
  if (!isInstrumentId(id)) return;
  writeStorage(KEY, withRecent(readRecentStocks(), id));
}

/** Removes one id from the list. */
export function removeRecentStock(id: InstrumentId): void {
  const list = readRecentStocks();
  if (list.includes(id)) writeStorage(KEY, list.filter((x) => x !== id));
}

/** Forgets every recently viewed stock. */
export function clearRecentStocks(): void {
  removeStorage(KEY);
}

// `useSyncExternalStore` needs the same array while nothing changed.
let cachedRaw: readonly string[] | undefined | null = null;
let cachedList: InstrumentId[] = [];

function snapshot(): InstrumentId[] {
  const raw = readStorage(KEY);
  if (raw === cachedRaw || (raw && cachedRaw && raw.join('\n') === cachedRaw.join('\n'))) return cachedList;
  cachedRaw = raw;
  cachedList = clean(raw ?? []);
  return cachedList;
}

function subscribe(onChange: () => void): () => void {
  return subscribeStorage((key) => {
    if (key === null || key === KEY) onChange();
  });
}

const EMPTY: InstrumentId[] = [];

/** The recently viewed stocks, following storage (this tab and others). */
export function useRecentStocks(): InstrumentId[] {
  return useSyncExternalStore(subscribe, snapshot, () => EMPTY);
}
