/**
 * CSV bodies and files, which the API client (JSON only) does not send or read: an upload
 * with progress (XMLHttpRequest) and a download, each with the member's token, each
 * failing with the one {@link ApiError}.
 */
import { ApiError, CLIENT_ERROR_CODES } from '@/shared/api/client';
import { currentToken } from '@/shared/session/session';

export function authHeaders(): Record<string, string> {
  const token = currentToken();
  return token ? { Authorization: `Bearer ${token}` } : {};
}

/** An error answer as an {@link ApiError} (the API's JSON error body, `errors` kept in `details`). */
export async function failure(response: Response): Promise<ApiError & { details?: unknown }> {
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

/** How far a CSV upload has got: bytes sent of the whole; `sent === total` while the server works on it. */
export interface UploadProgress {
  sent: number;
  total: number;
}

/**
 * Posts a CSV body (`text/csv`) and reads the JSON answer. Sent with XMLHttpRequest, not
 * fetch, because only XHR reports upload progress (a 5 MB file on a slow phone link takes
 * a while). A file goes as its bytes: the server tells UTF-8 from EUC-KR (brokers' HTS
 * exports), which reading it as text here would garble.
 */
export function postCsv<T>(path: `/${string}`, csv: string | Blob, onProgress?: (progress: UploadProgress) => void): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    const xhr = new XMLHttpRequest();
    xhr.open('POST', path);
    xhr.setRequestHeader('Accept', 'application/json');
    xhr.setRequestHeader('Content-Type', typeof csv === 'string' ? 'text/csv; charset=utf-8' : 'text/csv');
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
