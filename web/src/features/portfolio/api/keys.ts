/**
 * Query keys of the portfolio API. Everything lives under `['me', userId, 'portfolios', …]`
 * (`entities/member`), so one member's figures are never shown to another, and a change to
 * a portfolio's transactions refreshes every figure of that portfolio.
 */
import { MEMBER_QUERY_ROOT } from '@/entities/member/api/keys';

/** What `?currency=` takes. */
export type CurrencyParam = 'original' | 'KRW' | 'USD';

/** The route id of the combined meta portfolio. */
export const META_ID = 'meta';
/** A portfolio's id as the routes carry it: a number, or `meta`. */
export type PortfolioRef = number | typeof META_ID;

/** `/portfolios/7` → 7, `/portfolios/meta` → `meta`, anything else → `undefined`. */
export function parsePortfolioRef(raw: string | undefined): PortfolioRef | undefined {
  if (raw === META_ID) return META_ID;
  return raw && /^[1-9]\d{0,15}$/.test(raw) ? Number(raw) : undefined;
}

/** `/api/portfolios/{id}`. */
export const portfolioPath = (id: PortfolioRef): `/${string}` => `/api/portfolios/${id}`;

export const portfolioKeys = {
  all: (userId: number | null) => [MEMBER_QUERY_ROOT, userId, 'portfolios'] as const,
  lists: (userId: number | null) => [MEMBER_QUERY_ROOT, userId, 'portfolios', 'list'] as const,
  list: (userId: number | null, currency: CurrencyParam) => [MEMBER_QUERY_ROOT, userId, 'portfolios', 'list', currency] as const,
  one: (userId: number | null, id: PortfolioRef) => [MEMBER_QUERY_ROOT, userId, 'portfolios', id] as const,
  part: (userId: number | null, id: PortfolioRef, ...rest: (string | number)[]) =>
    [MEMBER_QUERY_ROOT, userId, 'portfolios', id, ...rest] as const,
};
