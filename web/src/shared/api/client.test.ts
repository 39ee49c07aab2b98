import { describe, expect, expectTypeOf, it, vi } from 'vitest';
import { jsonResponse, mockFetch } from '@/test/fetch';
import { ApiError, CLIENT_ERROR_CODES, apiGet, apiRequest, type ApiResponse, type ApiSchema } from './client';

async function failure(promise: Promise<unknown>): Promise<ApiError> {
  try {
    await promise;
  } catch (e) {
    expect(e).toBeInstanceOf(ApiError);
    return e as ApiError;
  }
  throw new Error('expected the request to fail');
}

describe('apiRequest', () => {
  it('returns the JSON body of a success, sending query and JSON body', async () => {
    const fetchMock = mockFetch((url, init) => jsonResponse({ path: url.pathname + url.search, body: init?.body }));
    const result = await apiRequest<{ path: string; body: string }>('/api/things', {
      method: 'POST',
      query: { q: '삼성', page: 2, skip: undefined, none: null },
      body: { a: 1 },
    });
    expect(result).toEqual({ path: '/api/things?q=%EC%82%BC%EC%84%B1&page=2', body: '{"a":1}' });
    const init = fetchMock.mock.calls[0]![1]!;
    expect(init.method).toBe('POST');
    expect((init.headers as Record<string, string>)['Content-Type']).toBe('application/json');
  });

  it('returns undefined for 204 No Content', async () => {
    mockFetch(() => new Response(null, { status: 204 }));
    await expect(apiRequest('/api/x', { method: 'DELETE' })).resolves.toBeUndefined();
  });

  it('returns undefined for a success without a body (202 Accepted)', async () => {
    mockFetch(() => new Response(null, { status: 202 }));
    await expect(apiRequest('/api/x', { method: 'POST', body: {} })).resolves.toBeUndefined();
  });

  it('turns the API error body into an ApiError with code, message, fields and request id', async () => {
    mockFetch(() =>
      jsonResponse(
        { code: 'invalid_input', message: 'Some fields are not valid.', fields: { nickname: 'taken' }, request_id: 'req-1' },
        { status: 422, headers: { 'x-request-id': 'req-header' } },
      ),
    );
    const error = await failure(apiRequest('/api/x'));
    expect(error).toMatchObject({
      name: 'ApiError',
      status: 422,
      code: 'invalid_input',
      message: 'Some fields are not valid.',
      fields: { nickname: 'taken' },
      requestId: 'req-1',
      isClientError: true,
    });
  });

  it('keeps the code and values of each field error beside its message', async () => {
    mockFetch(() =>
      jsonResponse(
        {
          code: 'invalid_input',
          message: 'Some fields are not valid.',
          fields: {
            quantity: {
              code: 'insufficient_quantity',
              params: { instrument: 'KRX:005930', held: '15', date: '2026-10-01' },
              message: 'sells 50 of KRX:005930 but only 15 is held on 2026-10-01',
            },
          },
          request_id: 'req-2',
        },
        { status: 422 },
      ),
    );
    const error = (await apiRequest('/api/x').catch((e: unknown) => e)) as ApiError;
    expect(error).toBeInstanceOf(ApiError);
    expect(error.code).toBe('invalid_input');
    expect(error.fields).toEqual({ quantity: 'sells 50 of KRX:005930 but only 15 is held on 2026-10-01' });
    expect(error.fieldProblems.quantity).toEqual({
      code: 'insufficient_quantity',
      params: { instrument: 'KRX:005930', held: '15', date: '2026-10-01' },
      message: 'sells 50 of KRX:005930 but only 15 is held on 2026-10-01',
    });
  });

  it('gives an empty fields object when the error has none', async () => {
    mockFetch(() => jsonResponse({ code: 'not_found', message: 'Not found.', fields: null, request_id: 'r' }, { status: 404 }));
    const error = await failure(apiRequest('/api/x'));
    expect(error.fields).toEqual({});
    expect(error.code).toBe('not_found');
  });

  it('normalises an error status without a JSON error body (a proxy page)', async () => {
    mockFetch(
      () =>
        new Response('<html>Bad gateway</html>', {
          status: 502,
          statusText: 'Bad Gateway',
          headers: { 'Content-Type': 'text/html', 'x-request-id': 'req-502' },
        }),
    );
    const error = await failure(apiRequest('/api/x'));
    expect(error).toMatchObject({ status: 502, code: CLIENT_ERROR_CODES.http, requestId: 'req-502', isClientError: false });
    expect(error.message).toContain('502');
  });

  it('normalises JSON that is not the error shape', async () => {
    mockFetch(() => jsonResponse({ error: 'nope' }, { status: 400 }));
    const error = await failure(apiRequest('/api/x'));
    expect(error).toMatchObject({ status: 400, code: CLIENT_ERROR_CODES.http });
  });

  it('normalises a network failure to status 0', async () => {
    vi.stubGlobal('fetch', vi.fn(() => Promise.reject(new TypeError('Failed to fetch'))));
    const error = await failure(apiRequest('/api/x'));
    expect(error).toMatchObject({ status: 0, code: CLIENT_ERROR_CODES.network, requestId: undefined });
    expect(error.cause).toBeInstanceOf(TypeError);
  });

  it('normalises a cancelled request', async () => {
    const controller = new AbortController();
    vi.stubGlobal(
      'fetch',
      vi.fn(() => Promise.reject(new DOMException('The operation was aborted.', 'AbortError'))),
    );
    controller.abort();
    const error = await failure(apiRequest('/api/x', { signal: controller.signal }));
    expect(error).toMatchObject({ status: 0, code: CLIENT_ERROR_CODES.aborted });
  });

  it('rejects a success whose body is not JSON', async () => {
    mockFetch(() => new Response('hello', { status: 200, headers: { 'x-request-id': 'req-ok' } }));
    const error = await failure(apiRequest('/api/x'));
    expect(error).toMatchObject({ status: 200, code: CLIENT_ERROR_CODES.invalidResponse, requestId: 'req-ok' });
  });
});

describe('apiGet', () => {
  it('is typed by the OpenAPI document', async () => {
    expectTypeOf<ApiResponse<'/api/meta', 'get'>>().toEqualTypeOf<ApiSchema<'Meta'>>();
    const fetchMock = mockFetch();
    const meta = await apiGet('/api/meta');
    expectTypeOf(meta.webview_host_enabled).toEqualTypeOf<boolean>();
    expect(meta.version).toBe('0.1.0-test');
    expect(fetchMock.mock.calls[0]![1]!.method).toBe('GET');
  });
});
