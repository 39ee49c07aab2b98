import { MEMBER_QUERY_ROOT } from '@/entities/member/api/keys';
import type { InstrumentId } from './types';

/**
 * Query keys of market data. Public data lives under `['market', …]`; the member's own
 * favourites under `['me', userId, …]`, so one member's list is never shown to another.
 */
export const marketKeys = {
  all: ['market'] as const,
  instrument: (id: InstrumentId) => ['market', 'instrument', id] as const,
  /** The latest quote; the stream writes pushed quotes here. */
  quote: (id: InstrumentId) => ['market', 'quote', id] as const,
  search: (query: string, limit: number) => ['market', 'search', query, limit] as const,
  favorites: (userId: number | null) => [MEMBER_QUERY_ROOT, userId, 'favorites'] as const,
};
