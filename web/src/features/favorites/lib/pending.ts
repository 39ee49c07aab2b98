/**
 * The favourites order being edited and not yet saved (`MOAT_FAVORITE_ASSETS_REORDER`,
 * docs/market.md): present exactly while an edit is under way, so a reload resumes it.
 */
import { useSyncExternalStore } from 'react';
import { readStorage, removeStorage, subscribeStorage, writeStorage } from '@/shared/lib/storage';
import type { Instrument, InstrumentId } from '@/entities/instrument/api/types';

const KEY = 'MOAT_FAVORITE_ASSETS_REORDER';

export function writePendingOrder(ids: InstrumentId[]): void {
  writeStorage(KEY, ids);
}

export function clearPendingOrder(): void {
  removeStorage(KEY);
}

let cachedText: string | undefined;
let cached: InstrumentId[] | undefined;

function snapshot(): InstrumentId[] | undefined {
  const ids = readStorage(KEY);
  const text = ids?.join('\n');
  if (text !== cachedText || (ids === undefined) !== (cached === undefined)) {
    cachedText = text;
    cached = ids;
  }
  return cached;
}

function subscribe(onChange: () => void): () => void {
  return subscribeStorage((key) => {
    if (key === null || key === KEY) onChange();
  });
}

/** The pending order, following storage; `undefined` while not editing. */
export function usePendingOrder(): InstrumentId[] | undefined {
  return useSyncExternalStore(subscribe, snapshot, () => undefined);
}

/**
 * The saved list in the pending order. `undefined` when the pending order names an
 * instrument that is not among `saved`: the list changed elsewhere (another device, or
 * another member on this browser), so the edit no longer applies. Saved favourites
 * missing from the pending order are ones the edit removed.
 */
export function applyPendingOrder(saved: readonly Instrument[], pending: readonly InstrumentId[]): Instrument[] | undefined {
  const byId = new Map(saved.map((i) => [i.id, i]));
  const list: Instrument[] = [];
  for (const id of new Set(pending)) {
    const instrument = byId.get(id);
    if (!instrument) return undefined;
    list.push(instrument);
  }
  return list;
}

/** `list` with the item at `from` moved to `to`. */
export function moveItem<T>(list: readonly T[], from: number, to: number): T[] {
  const copy = [...list];
  const [item] = copy.splice(from, 1);
  if (item !== undefined) copy.splice(Math.max(0, Math.min(to, copy.length)), 0, item);
  return copy;
}
