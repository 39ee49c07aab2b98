/** `POST /api/portfolios/{id}/import/preview` and `POST …/import`: transactions from a CSV file. */
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useAuth } from '@/entities/member/model/auth-context';
import type { Transaction } from '@/entities/transaction/api/types';
import type { ApiSchema } from '@/shared/api/client';
import type { Narrow } from '@/shared/api/narrow';
import { postCsv, type UploadProgress } from './csv';
import { portfolioKeys, portfolioPath } from './keys';

export type { UploadProgress };

/** The server refuses larger files (413 `payload_too_large`; `moat_portfolio::csv_file::MAX_IMPORT_BYTES`). */
export const IMPORT_MAX_BYTES = 5 * 1024 * 1024;
/** The server refuses files with more rows (413 `too_many_rows`; `moat_portfolio::csv_file::MAX_IMPORT_ROWS`). */
export const IMPORT_MAX_ROWS = 20_000;
/** The preview shows at most this many rows (the server's cut). */
export const IMPORT_PREVIEW_ROWS = 100;

/** A problem with one CSV line (`line`), or with the whole file (line 1, the header). */
export type ImportError = ApiSchema<'RowErrorDto'>;

/** One previewed line. */
export type PreviewRow = Narrow<ApiSchema<'PreviewRowDto'>, { transaction: Transaction }>;

/** The counts, the date range, the first {@link IMPORT_PREVIEW_ROWS} rows and every error. */
export type ImportPreview = Narrow<ApiSchema<'ImportPreviewDto'>, { rows: PreviewRow[] }>;

/** `POST /api/portfolios/{id}/import`. */
export type ImportResult = ApiSchema<'ImportResult'>;

export const previewImport = (id: number, csv: string | Blob, onProgress?: (progress: UploadProgress) => void) =>
  postCsv<ImportPreview>(`${portfolioPath(id)}/import/preview`, csv, onProgress);

export const importCsv = (id: number, csv: string | Blob, onProgress?: (progress: UploadProgress) => void) =>
  postCsv<ImportResult>(`${portfolioPath(id)}/import`, csv, onProgress);

/** Imports a file; every figure of the member's portfolios is refreshed. */
export function useImport(id: number, onProgress?: (progress: UploadProgress) => void) {
  const { userId } = useAuth();
  const client = useQueryClient();
  return useMutation({
    mutationFn: (csv: string | Blob) => importCsv(id, csv, onProgress),
    onSuccess: () => client.invalidateQueries({ queryKey: portfolioKeys.all(userId) }),
  });
}
