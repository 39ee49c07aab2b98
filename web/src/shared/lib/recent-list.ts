/**
 * A "recent" list kept in local storage (recently viewed stocks, recent news searches,
 * later community and chat searches): newest first, no duplicates, at most `max`.
 * Anything unreadable reads as an empty list; entries `normalize` refuses (it returns
 * `null`), repeats and those beyond the cap are dropped. Every tab follows the stored
 * list through `use()`.
 */
import { useSyncExternalStore } from 'react';
import { readStorage, removeStorage, subscribeStorage, writeStorage, type StorageName, type StorageValue } from './storage';

/** The storage keys that hold a list of strings. */
export type StringListKey = {
  [K in StorageName]: StorageValue<K> extends readonly string[] ? K : never;
}[StorageName];

export interface RecentList<T extends string> {
  /** `list` with `item` moved (or added) to the front, deduplicated and capped. */
  with(list: readonly T[], item: T): T[];
  /** The stored list, cleaned; `[]` when absent or corrupt. */
  read(): T[];
  /** Records `item` (nothing when `normalize` refuses it). */
  add(item: string): void;
  /** Removes one item. */
  remove(item: string): void;
  /** Forgets them all. */
  clear(): void;
  /** The list, following storage (this tab and others). */
  use(): T[];
}

export function recentList<T extends string>(
  key: StringListKey,
  max: number,
  normalize: (raw: string) => T | null,
): RecentList<T> {
  const clean = (list: readonly string[]): T[] => {
    const kept = list.map(normalize).filter((x): x is T => x !== null);
    return [...new Set(kept)].slice(0, max);
  };
  const read = (): T[] => clean((readStorage(key) as readonly string[] | undefined) ?? []);
  const write = (list: T[]) => writeStorage(key, list as StorageValue<typeof key>);

  // `useSyncExternalStore` needs the same array while nothing changed.
  let cachedKey: string | null = null;
  let cachedList: T[] = [];
  const snapshot = (): T[] => {
    const list = read();
    const joined = JSON.stringify(list);
    if (joined !== cachedKey) {
      cachedKey = joined;
      cachedList = list;
    }
    return cachedList;
  };
  const subscribe = (onChange: () => void) =>
    subscribeStorage((changed) => {
      if (changed === null || changed === key) onChange();
    });
  const empty: T[] = [];

  return {
    with: (list, item) => [item, ...list.filter((x) => x !== item)].slice(0, max),
    read,
    add(item) {
      const normal = normalize(item);
      if (normal !== null) write(clean([normal, ...read()]));
    },
    remove(item) {
      const list = read();
      if (list.includes(item as T)) write(list.filter((x) => x !== item));
    },
    clear: () => removeStorage(key),
    use: () => useSyncExternalStore(subscribe, snapshot, () => empty),
  };
}
