/** `GET /api/portfolios/{id}/export.csv`: a portfolio's transactions as a CSV file. */
import { ApiError, CLIENT_ERROR_CODES } from '@/shared/api/client';
import { authHeaders, failure } from './csv';
import { portfolioPath } from './keys';

/** The export's address. */
export const exportPath = (id: number): `/${string}` => `${portfolioPath(id)}/export.csv`;

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
