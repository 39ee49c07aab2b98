/**
 * The one instrument combobox (the search page's box, the transaction form's picker):
 * instrument search (`/api/instruments/search`) as one types, debounced, over the shared
 * combobox base (keys, IME composition, ARIA). The screens lay it out; this decides what
 * is listed and what Enter or a click chooses.
 */
import { useDebouncedValue } from '@/shared/hooks/useDebouncedValue';
import { useCombobox, useComposedText } from '@/shared/ui/combobox/useCombobox';
import { normaliseQuery, useInstrumentSearch } from '../api/search';
import type { Instrument, InstrumentId } from '../api/types';

export interface UseInstrumentComboboxOptions {
  /** Typing must pause this long before a search is sent. */
  debounceMs: number;
  /** An option was chosen: its id, and the instrument when it came from the search. */
  onChoose: (id: InstrumentId, instrument: Instrument | undefined) => void;
  /** Only these results are offered (e.g. what can be held). */
  filter?: (instrument: Instrument) => boolean;
  /** Offered while the box is empty (recently viewed stocks); Enter then opens only a highlighted one. */
  idleIds?: readonly InstrumentId[];
  /** The box's text at first (`?q=`). */
  initialText?: string;
}

const EMPTY: readonly InstrumentId[] = [];

export function useInstrumentCombobox({ debounceMs, onChoose, filter, idleIds = EMPTY, initialText }: UseInstrumentComboboxOptions) {
  const text = useComposedText(initialText);
  /** What was last searched for (the committed text, trimmed, once typing paused). */
  const query = useDebouncedValue(normaliseQuery(text.committed), debounceMs);
  const search = useInstrumentSearch(query);
  /** Nothing typed: the idle list is offered. */
  const idle = normaliseQuery(text.committed) === '';
  const results = idle || !query ? [] : filter ? (search.data ?? []).filter(filter) : (search.data ?? []);
  const ids = idle ? idleIds : results.map((r) => r.id);
  const combobox = useCombobox({
    text,
    items: ids,
    listKey: `${idle}|${query}|${search.dataUpdatedAt}`,
    onChoose: (id) => onChoose(id, results.find((r) => r.id === id)),
    enterChoosesFirst: !idle,
  });
  return { text, combobox, query, search, idle, results, ids };
}
