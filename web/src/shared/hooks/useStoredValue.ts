import { useCallback, useSyncExternalStore } from 'react';
import { readStorage, subscribeStorage, writeStorage, type StorageName, type StorageValue } from '@/shared/lib/storage';

/**
 * A stored setting with a string or boolean value (a stable snapshot), followed live (this
 * tab, other tabs, the app's `LOCAL_STORAGE_SET`), and its setter; `undefined` while unset.
 */
export function useStoredValue<K extends StorageName>(key: K): [StorageValue<K> | undefined, (value: StorageValue<K>) => void] {
  const subscribe = useCallback(
    (onChange: () => void) =>
      subscribeStorage((changed) => {
        if (changed === null || changed === key) onChange();
      }),
    [key],
  );
  const value = useSyncExternalStore(subscribe, () => readStorage(key), () => undefined);
  const set = useCallback((next: StorageValue<K>) => void writeStorage(key, next), [key]);
  return [value, set];
}
