import { vi } from 'vitest';

/** A JSON `Response`. */
export function jsonResponse(body: unknown, init: ResponseInit = {}): Response {
  return new Response(JSON.stringify(body), {
    status: 200,
    ...init,
    headers: { 'Content-Type': 'application/json', ...init.headers },
  });
}

/** The `/api/meta` answer the tests use. */
export const TEST_META = {
  version: '0.1.0-test',
  server_time: '2025-01-02T03:04:05.000Z',
  default_locale: 'ko',
  webview_host_enabled: true,
} as const;

export type FetchHandler = (url: URL, init: RequestInit | undefined) => Response | Promise<Response>;

/**
 * Replaces `fetch` for one test (restored after it). The default answers `/api/meta`
 * and 404s everything else in the API's error shape.
 */
export function mockFetch(handler: FetchHandler = defaultHandler) {
  const fn = vi.fn((input: RequestInfo | URL, init?: RequestInit) => {
    const raw = typeof input === 'string' ? input : input instanceof URL ? input.href : input.url;
    return Promise.resolve(handler(new URL(raw, window.location.origin), init));
  });
  vi.stubGlobal('fetch', fn);
  return fn;
}

function defaultHandler(url: URL): Response {
  if (url.pathname === '/api/meta') return jsonResponse(TEST_META);
  return jsonResponse(
    { code: 'not_found', message: 'There is no such API endpoint.', request_id: 'test' },
    { status: 404 },
  );
}

/**
 * jsdom's XMLHttpRequest would really go to the network. Tests route it through
 * `fetch` (so `mockFetch` answers it too), reporting the upload as sent in one piece
 * before the answer: what a browser reports for a small body.
 */
/** A blob's text (`FileReader`: jsdom's `Blob` has no `text()` in every version). */
function readBlob(blob: Blob): Promise<string> {
  return new Promise((resolve, reject) => {
    const reader = new FileReader();
    reader.onload = () => resolve(typeof reader.result === 'string' ? reader.result : '');
    reader.onerror = () => reject(reader.error ?? new Error('unreadable'));
    reader.readAsText(blob, 'utf-8');
  });
}

export class XhrOverFetch {
  readonly upload: { onprogress: ((e: { lengthComputable: boolean; loaded: number; total: number }) => void) | null } = { onprogress: null };
  onload: (() => void) | null = null;
  onerror: (() => void) | null = null;
  status = 0;
  responseText = '';
  private method = 'GET';
  private url = '';
  private readonly headers: Record<string, string> = {};
  private responseHeaders = new Headers();

  open(method: string, url: string) {
    this.method = method;
    this.url = url;
  }

  setRequestHeader(name: string, value: string) {
    this.headers[name] = value;
  }

  getResponseHeader(name: string): string | null {
    return this.responseHeaders.get(name);
  }

  send(body?: string | Blob) {
    const size = typeof body === 'string' ? body.length : (body?.size ?? 0);
    this.upload.onprogress?.({ lengthComputable: true, loaded: size, total: size });
    // A file goes as its text (UTF-8 in tests), so the recorded call shows what was sent.
    const text = body instanceof Blob ? readBlob(body) : Promise.resolve(body);
    text
      .then((body) => fetch(this.url, { method: this.method, headers: this.headers, body }))
      .then(async (response) => {
        this.status = response.status;
        this.responseHeaders = response.headers;
        this.responseText = await response.text();
        this.onload?.();
      })
      .catch(() => this.onerror?.());
  }
}
