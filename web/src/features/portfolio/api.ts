/**
 * The portfolio API (docs/portfolio.md) as queries and mutations. Everything lives under
 * `['me', userId, 'portfolios', …]`, so one member's figures are never shown to another,
 * and a change to a portfolio's transactions refreshes every figure of that portfolio.
 */
import { keepPreviousData, queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { MEMBER_QUERY_ROOT } from '@/entities/member/api/keys';
import { ApiError, apiRequest, CLIENT_ERROR_CODES } from '@/shared/api/client';
import { useAuth } from '@/entities/member/model/auth-context';
import { createTransaction } from '@/entities/transaction/api/create-transaction';
import type { NewTransaction, Transaction } from '@/entities/transaction/api/types';
import { currentToken } from '@/shared/session/session';
import type {
  AllocationBy,
  Benchmark,
  CurrencyParam,
  ImportPreview,
  ImportResult,
  NewPortfolio,
  Performance,
  Portfolio,
  PortfolioList,
  PortfolioPatch,
  Slice,
  Valuation,
} from './api-types';

/** The route id of the combined meta portfolio. */
export const META_ID = 'meta';
/** A portfolio's id as the routes carry it: a number, or `meta`. */
export type PortfolioRef = number | typeof META_ID;

/** `/portfolios/7` → 7, `/portfolios/meta` → `meta`, anything else → `undefined`. */
export function parsePortfolioRef(raw: string | undefined): PortfolioRef | undefined {
  if (raw === META_ID) return META_ID;
  return raw && /^[1-9]\d{0,15}$/.test(raw) ? Number(raw) : undefined;
}

const base = (id: PortfolioRef): `/${string}` => `/api/portfolios/${id}`;

export const portfolioKeys = {
  all: (userId: number | null) => [MEMBER_QUERY_ROOT, userId, 'portfolios'] as const,
  list: (userId: number | null, currency: CurrencyParam) => [MEMBER_QUERY_ROOT, userId, 'portfolios', 'list', currency] as const,
  one: (userId: number | null, id: PortfolioRef) => [MEMBER_QUERY_ROOT, userId, 'portfolios', id] as const,
  part: (userId: number | null, id: PortfolioRef, ...rest: (string | number)[]) =>
    [MEMBER_QUERY_ROOT, userId, 'portfolios', id, ...rest] as const,
};

/** The member's id, for the query keys and to hold queries back for a visitor. */
function useMember() {
  return useAuth().userId;
}

export function usePortfolioList(currency: CurrencyParam) {
  const userId = useMember();
  return useQuery(
    queryOptions({
      queryKey: portfolioKeys.list(userId, currency),
      queryFn: ({ signal }) => apiRequest<PortfolioList>('/api/portfolios', { query: { currency }, signal }),
      enabled: userId !== null,
      placeholderData: keepPreviousData,
    }),
  );
}

/** One portfolio's settings (not for `meta`, which has none). */
export function usePortfolio(id: PortfolioRef) {
  const userId = useMember();
  return useQuery({
    queryKey: portfolioKeys.part(userId, id, 'settings'),
    queryFn: ({ signal }) => apiRequest<Portfolio>(base(id), { signal }),
    enabled: userId !== null && id !== META_ID,
  });
}

/** The meta portfolio has no `original` mode: its totals are in KRW then. */
export function currencyFor(id: PortfolioRef, currency: CurrencyParam): CurrencyParam {
  return id === META_ID && currency === 'original' ? 'KRW' : currency;
}

export function useValuation(id: PortfolioRef, currency: CurrencyParam) {
  const userId = useMember();
  const c = currencyFor(id, currency);
  return useQuery({
    queryKey: portfolioKeys.part(userId, id, 'valuation', c),
    queryFn: ({ signal }) => apiRequest<Valuation>(`${base(id)}/valuation`, { query: { currency: c }, signal }),
    enabled: userId !== null,
    placeholderData: keepPreviousData,
  });
}

export function usePerformance(id: PortfolioRef, currency: CurrencyParam, benchmark: Benchmark) {
  const userId = useMember();
  const c = currencyFor(id, currency);
  return useQuery({
    queryKey: portfolioKeys.part(userId, id, 'performance', c, benchmark),
    queryFn: ({ signal }) =>
      apiRequest<Performance>(`${base(id)}/performance`, { query: { currency: c, benchmark }, signal }),
    enabled: userId !== null,
    placeholderData: keepPreviousData,
  });
}

/** Allocation of one portfolio (the meta portfolio's is worked out from its valuation). */
export function useAllocation(id: PortfolioRef, by: AllocationBy, currency: CurrencyParam) {
  const userId = useMember();
  return useQuery({
    queryKey: portfolioKeys.part(userId, id, 'allocation', by, currency),
    queryFn: ({ signal }) => apiRequest<Slice[]>(`${base(id)}/allocation`, { query: { by, currency }, signal }),
    enabled: userId !== null,
    placeholderData: keepPreviousData,
  });
}

export function useTransactions(id: PortfolioRef, enabled = true) {
  const userId = useMember();
  return useQuery({
    queryKey: portfolioKeys.part(userId, id, 'transactions'),
    queryFn: ({ signal }) => apiRequest<Transaction[]>(`${base(id)}/transactions`, { signal }),
    enabled: enabled && userId !== null && id !== META_ID,
  });
}

export function useCreatePortfolio() {
  const userId = useMember();
  const client = useQueryClient();
  return useMutation({
    mutationFn: (body: NewPortfolio) => apiRequest<Portfolio>('/api/portfolios', { method: 'POST', body }),
    onSuccess: () => client.invalidateQueries({ queryKey: portfolioKeys.all(userId) }),
  });
}

export function useUpdatePortfolio(id: number) {
  const userId = useMember();
  const client = useQueryClient();
  return useMutation({
    mutationFn: (body: PortfolioPatch) => apiRequest<Portfolio>(base(id), { method: 'PATCH', body }),
    onSuccess: (saved) => {
      client.setQueryData(portfolioKeys.part(userId, id, 'settings'), saved);
      return client.invalidateQueries({ queryKey: portfolioKeys.all(userId) });
    },
  });
}

/**
 * Deletes a portfolio (its transactions go with it). The lists and the meta portfolio are
 * refreshed; the deleted one's own queries are left to the caller, which leaves its page
 * first (refetching them would only answer 404).
 */
export function useDeletePortfolio(id: number) {
  const userId = useMember();
  const client = useQueryClient();
  return useMutation({
    mutationFn: () => apiRequest<void>(base(id), { method: 'DELETE' }),
    onSuccess: () =>
      Promise.all([
        client.invalidateQueries({ queryKey: [...portfolioKeys.all(userId), 'list'] }),
        client.invalidateQueries({ queryKey: portfolioKeys.one(userId, META_ID) }),
      ]).then(() => undefined),
  });
}

/** Removes every cached query of one portfolio (after it was deleted and its page left). */
export function useForgetPortfolio() {
  const userId = useMember();
  const client = useQueryClient();
  return (id: number) => client.removeQueries({ queryKey: portfolioKeys.one(userId, id) });
}

/** `list` with its portfolios in the order of `ids` (ids it does not hold are skipped, others keep their place at the end). */
export function inOrder(list: PortfolioList, ids: readonly number[]): PortfolioList {
  const rank = new Map(ids.map((id, i) => [id, i]));
  const portfolios = [...list.portfolios].sort(
    (a, b) => (rank.get(a.portfolio.id) ?? Number.MAX_SAFE_INTEGER) - (rank.get(b.portfolio.id) ?? Number.MAX_SAFE_INTEGER),
  );
  return { ...list, portfolios };
}

/**
 * `PUT /api/portfolios/order` with every id, shown at once: each cached list (every
 * currency) takes the new order before the server answers, and goes back to what it was
 * if the server refuses (the lists are then asked again). The promise settles with the
 * server's answer and never rejects; it tells whether the order was saved.
 */
export function useReorderPortfolios() {
  const userId = useMember();
  const client = useQueryClient();
  const mutation = useMutation({
    mutationFn: (ids: number[]) => apiRequest<void>('/api/portfolios/order', { method: 'PUT', body: { ids } }),
  });
  const { mutateAsync } = mutation;
  const reorder = (ids: number[]): Promise<{ ok: true } | { ok: false; error: unknown }> => {
    const lists = [...portfolioKeys.all(userId), 'list'];
    void client.cancelQueries({ queryKey: lists });
    const before = client.getQueriesData<PortfolioList>({ queryKey: lists });
    client.setQueriesData<PortfolioList>({ queryKey: lists }, (old) => (old ? inOrder(old, ids) : old));
    return mutateAsync(ids).then(
      () => ({ ok: true as const }),
      (error: unknown) => {
        for (const [key, data] of before) client.setQueryData(key, data);
        void client.invalidateQueries({ queryKey: lists });
        return { ok: false as const, error };
      },
    );
  };
  return { reorder, isPending: mutation.isPending };
}

/** A transaction to save; a new one (`POST`) names its request with an `Idempotency-Key`. */
export interface SaveTransaction {
  body: NewTransaction;
  /** `shared/lib/idempotency.ts`: the same key for a resend of the same body. */
  idempotencyKey?: string;
}

/**
 * Saves a transaction (a new one without `txId`). Every figure of the member's
 * portfolios is recomputed by the server, so all of them are refreshed.
 */
export function useSaveTransaction(id: number, txId?: number) {
  const userId = useMember();
  const client = useQueryClient();
  return useMutation({
    mutationFn: ({ body, idempotencyKey }: SaveTransaction) =>
      txId === undefined
        ? createTransaction(id, body, idempotencyKey)
        : apiRequest<Transaction>(`${base(id)}/transactions/${txId}`, { method: 'PUT', body }),
    onSuccess: () => client.invalidateQueries({ queryKey: portfolioKeys.all(userId) }),
  });
}

export function useDeleteTransaction(id: number) {
  const userId = useMember();
  const client = useQueryClient();
  return useMutation({
    mutationFn: (txId: number) => apiRequest<void>(`${base(id)}/transactions/${txId}`, { method: 'DELETE' }),
    onSuccess: () => client.invalidateQueries({ queryKey: portfolioKeys.all(userId) }),
  });
}

// --- CSV ---------------------------------------------------------------------------------

/** The server refuses larger files (413 `payload_too_large`; `moat_portfolio::csv_file::MAX_IMPORT_BYTES`). */
export const IMPORT_MAX_BYTES = 5 * 1024 * 1024;
/** The server refuses files with more rows (413 `too_many_rows`; `moat_portfolio::csv_file::MAX_IMPORT_ROWS`). */
export const IMPORT_MAX_ROWS = 20_000;

function authHeaders(): Record<string, string> {
  const token = currentToken();
  return token ? { Authorization: `Bearer ${token}` } : {};
}

/** An error answer as an {@link ApiError} (the API's JSON error body, `errors` kept in `details`). */
async function failure(response: Response): Promise<ApiError & { details?: unknown }> {
  let body: unknown;
  try {
    body = await response.json();
  } catch {
    body = undefined;
  }
  const o = (typeof body === 'object' && body !== null ? body : {}) as Record<string, unknown>;
  const error = new ApiError({
    status: response.status,
    code: typeof o.code === 'string' ? o.code : CLIENT_ERROR_CODES.http,
    message: typeof o.message === 'string' ? o.message : `The server answered ${response.status}.`,
    requestId: typeof o.request_id === 'string' ? o.request_id : undefined,
  });
  return Object.assign(error, { details: o.errors });
}

/**
 * `POST` of a CSV body (`text/csv`): the API client sends only JSON, so this one call
 * goes by `fetch` itself, with the member's token.
 */
/** How far a CSV upload has got: bytes sent of the whole; `sent === total` while the server works on it. */
export interface UploadProgress {
  sent: number;
  total: number;
}

/**
 * Posts a CSV file and reads the JSON answer. Sent with XMLHttpRequest, not fetch,
 * because only XHR reports upload progress (a 5 MB file on a slow phone link takes a while).
 */
function postCsv<T>(path: `/${string}`, csv: string, onProgress?: (progress: UploadProgress) => void): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    const xhr = new XMLHttpRequest();
    xhr.open('POST', path);
    xhr.setRequestHeader('Accept', 'application/json');
    xhr.setRequestHeader('Content-Type', 'text/csv; charset=utf-8');
    for (const [name, value] of Object.entries(authHeaders())) xhr.setRequestHeader(name, value);
    if (onProgress) {
      xhr.upload.onprogress = (e) => {
        if (e.lengthComputable) onProgress({ sent: e.loaded, total: e.total });
      };
    }
    xhr.onerror = () => reject(new ApiError({ status: 0, code: CLIENT_ERROR_CODES.network, message: 'Could not reach the server.' }));
    xhr.onload = () => {
      const response = new Response(xhr.responseText, { status: xhr.status, headers: { 'Content-Type': xhr.getResponseHeader('Content-Type') ?? '' } });
      if (!response.ok) return void failure(response).then(reject);
      response.json().then(
        (body: unknown) => resolve(body as T),
        (cause: unknown) => reject(new ApiError({ status: response.status, code: CLIENT_ERROR_CODES.invalidResponse, message: 'Not JSON.', cause })),
      );
    };
    xhr.send(csv);
  });
}

export const previewImport = (id: number, csv: string, onProgress?: (progress: UploadProgress) => void) =>
  postCsv<ImportPreview>(`${base(id)}/import/preview`, csv, onProgress);

export function useImport(id: number, onProgress?: (progress: UploadProgress) => void) {
  const userId = useMember();
  const client = useQueryClient();
  return useMutation({
    mutationFn: (csv: string) => postCsv<ImportResult>(`${base(id)}/import`, csv, onProgress),
    onSuccess: () => client.invalidateQueries({ queryKey: portfolioKeys.all(userId) }),
  });
}

/** The export's address (`GET …/export.csv`). */
export const exportPath = (id: number): `/${string}` => `${base(id)}/export.csv`;

/**
 * Downloads the export. A plain link would not carry the member's token, so the file is
 * fetched and handed to the browser as a download.
 */
export async function downloadExport(id: number, filename: string): Promise<void> {
  let response: Response;
  try {
    response = await fetch(exportPath(id), { headers: { Accept: 'text/csv', ...authHeaders() }, credentials: 'same-origin' });
  } catch (cause) {
    throw new ApiError({ status: 0, code: CLIENT_ERROR_CODES.network, message: 'Could not reach the server.', cause });
  }
  if (!response.ok) throw await failure(response);
  const blob = await response.blob();
  const url = URL.createObjectURL(blob);
  const a = document.createElement('a');
  a.href = url;
  a.download = filename;
  document.body.append(a);
  a.click();
  a.remove();
  setTimeout(() => URL.revokeObjectURL(url), 0);
}
