/**
 * `GET /api/portfolios/{id}/dividend-draft?instrument=&date=`: what the transaction form
 * fills in for a dividend — the dividend paid on the date (or the last ex-date before
 * it), the shares held on its ex-date and the withholding at the configured rate of the
 * instrument's country.
 */
import { queryOptions, useQuery } from '@tanstack/react-query';
import { useAuth } from '@/entities/member/model/auth-context';
import { apiRequest, type ApiSchema } from '@/shared/api/client';
import { portfolioKeys, portfolioPath } from './keys';

export type DividendDraft = ApiSchema<'DividendDraftDto'>;

export const fetchDividendDraft = (portfolioId: number, instrument: string, date: string, signal?: AbortSignal) =>
  apiRequest<DividendDraft>(`${portfolioPath(portfolioId)}/dividend-draft`, { query: { instrument, date }, signal });

export function dividendDraftQueryOptions(userId: number | null, portfolioId: number, instrument: string, date: string) {
  return queryOptions({
    queryKey: portfolioKeys.part(userId, portfolioId, 'dividend-draft', instrument, date),
    queryFn: ({ signal }) => fetchDividendDraft(portfolioId, instrument, date, signal),
    enabled: userId !== null && instrument !== '' && /^\d{4}-\d{2}-\d{2}$/.test(date),
  });
}

/** The draft for `instrument` on `date`; `enabled` false (not a new dividend) asks nothing. */
export function useDividendDraft(portfolioId: number, instrument: string | null, date: string, enabled: boolean) {
  const { userId } = useAuth();
  const options = dividendDraftQueryOptions(userId, portfolioId, instrument ?? '', date);
  return useQuery({ ...options, enabled: enabled && options.enabled !== false && instrument !== null });
}
