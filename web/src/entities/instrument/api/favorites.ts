/**
 * `GET/PUT /api/me/favorites`: the member's favourite instruments, in their order. A
 * change shows at once (optimistic) and is rolled back if the server refuses it.
 */
import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { apiRequest } from '@/shared/api/client';
import { useAuth } from '@/entities/member/model/auth-context';
import type { FavoritesUpdate, Instrument, InstrumentId } from './types';
import { marketKeys } from './keys';

/** The server keeps at most this many (docs/market.md). */
export const FAVORITES_MAX = 100;

const PATH = '/api/me/favorites';

export const fetchFavorites = (signal?: AbortSignal) => apiRequest<Instrument[]>(PATH, { signal });

export const putFavorites = (ids: InstrumentId[]) =>
  apiRequest<Instrument[]>(PATH, { method: 'PUT', body: { ids } satisfies FavoritesUpdate });

export function favoritesQueryOptions(userId: number | null) {
  return queryOptions({
    queryKey: marketKeys.favorites(userId),
    queryFn: ({ signal }) => fetchFavorites(signal),
    enabled: userId !== null,
  });
}

/** The member's favourites (disabled for a visitor: `data` stays `undefined`). */
export function useFavorites() {
  const { userId } = useAuth();
  return useQuery(favoritesQueryOptions(userId));
}

/**
 * Replaces the member's whole ordered list. Takes the instruments (not just ids) so the
 * screens can show the new list before the server answers. Saves run one after another.
 */
export function useSaveFavorites() {
  const { userId } = useAuth();
  const client = useQueryClient();
  const key = marketKeys.favorites(userId);
  return useMutation({
    scope: { id: 'market-favorites' },
    mutationFn: (list: Instrument[]) => putFavorites(list.map((i) => i.id)),
    onMutate: async (list) => {
      await client.cancelQueries({ queryKey: key });
      const previous = client.getQueryData<Instrument[]>(key);
      client.setQueryData(key, list);
      return { previous };
    },
    onError: (_error, _list, context) => {
      if (context) client.setQueryData(key, context.previous);
    },
    onSuccess: (saved) => {
      client.setQueryData(key, saved);
    },
  });
}

/** The instrument's own fields, without what a detail answer adds (quote, key figures). */
function instrumentOnly(instrument: Instrument): Instrument {
  const { quote: _quote, stats: _stats, ...rest } = instrument as Instrument & { quote?: unknown; stats?: unknown };
  return rest;
}

/** Whether `id` is among the member's favourites, and a toggle that adds it last or removes it. */
export function useFavoriteToggle(instrument: Instrument | undefined) {
  const favorites = useFavorites();
  const save = useSaveFavorites();
  const list = favorites.data;
  const isFavorite = !!instrument && !!list?.some((f) => f.id === instrument.id);
  return {
    isFavorite,
    /** Known once the member's list has loaded. */
    ready: list !== undefined,
    full: !isFavorite && (list?.length ?? 0) >= FAVORITES_MAX,
    pending: save.isPending,
    toggle(options?: { onError?: (error: unknown) => void; onSuccess?: () => void }) {
      if (!instrument || !list) return;
      const next = isFavorite ? list.filter((f) => f.id !== instrument.id) : [...list, instrumentOnly(instrument)];
      save.mutate(next, { onError: options?.onError, onSuccess: options?.onSuccess });
    },
  };
}
