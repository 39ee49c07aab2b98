/**
 * Recent news searches (`MOAT_NEWS_RECENT_SEARCHES`, docs/news.md): queries, newest
 * first, no duplicates, at most {@link MAX_RECENT_SEARCHES}. Anything unreadable reads as
 * an empty list; blank entries, repeats and those beyond the cap are dropped.
 */
import { useSyncExternalStore } from 'react';
import { readStorage, removeStorage, subscribeStorage, writeStorage } from '@/shared/lib/storage';

/** How many recent searches are kept. */
export const MAX_RECENT_SEARCHES = 10;

const KEY = 'MOAT_NEWS_RECENT_SEARCHES';

/** Trimmed, first occurrence of each, at most the cap. */
function clean(list: readonly string[]): string[] {
  return [...new Set(list.map((q) => q.trim()).filter(Boolean))].slice(0, MAX_RECENT_SEARCHES);
}

/** `list` with `query` moved (or added) to the front, deduplicated and capped. */
export function withRecentSearch(list: readonly string[], query: string): string[] {
  return clean([query, ...list]);
}

export function readRecentSearches(): string[] {
  return clean(readStorage(KEY) ?? []);
}

/** Records a search (a blank one is not recorded). */
export function addRecentSearch(query: string): void {
  if (query.trim() === '') return;
  writeStorage(KEY, withRecentSearch(readRecentSearches(), query));
}

export function removeRecentSearch(query: string): void {
  writeStorage(
    KEY,
    readRecentSearches().filter((q) => q !== query),
  );
}

export function clearRecentSearches(): void {
  removeStorage(KEY);
}

// `useSyncExternalStore` needs the same array while nothing changed.
let cachedKey: string | null = null;
let cachedList: string[] = [];

function snapshot(): string[] {
  const list = readRecentSearches();
  const key = JSON.stringify(list);
  if (key !== cachedKey) {
    cachedKey = key;
    cachedList = list;
  }
  return cachedList;
}

function subscribe(onChange: () => void): () => void {
  return subscribeStorage((key) => {
    if (key === null || key === KEY) onChange();
  });
}

const EMPTY: string[] = [];

/** The recent searches, following storage (this tab and others). */
export function useRecentSearches(): string[] {
  return useSyncExternalStore(subscribe, snapshot, () => EMPTY);
}
