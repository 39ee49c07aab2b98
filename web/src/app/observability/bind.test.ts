import { describe, expect, it } from 'vitest';
import { ApiError } from '@/shared/api/client';
import { storeToken } from '@/shared/session/session';
import { jsonResponse, mockFetch } from '@/test/fetch';
import { makeToken } from '@/test/tokens';
import { bindRecordedSession, bindingPath } from './bind';

describe('binding the recorded session to the member', () => {
  it('PUTs the session id with the member’s token', async () => {
    const token = makeToken();
    storeToken(token);
    const fetchMock = mockFetch(() => new Response(null, { status: 204 }));
    await expect(bindRecordedSession('Abc-123_x')).resolves.toBeUndefined();
    const [url, init] = fetchMock.mock.calls[0]!;
    expect(String(url)).toBe('/api/observe/sessions/Abc-123_x/member');
    expect(init?.method).toBe('PUT');
    expect((init?.headers as Record<string, string>).Authorization).toBe(`Bearer ${token}`);
  });

  it('keeps the id inside its path segment', () => {
    expect(bindingPath('a/../b?c')).toBe('/api/observe/sessions/a%2F..%2Fb%3Fc/member');
  });

  it('rejects with the server’s code when the session is another member’s', async () => {
    storeToken(makeToken());
    mockFetch(() =>
      jsonResponse(
        { code: 'session_bound', message: 'This recorded session belongs to another member.', request_id: 'r' },
        { status: 409 },
      ),
    );
    const error = await bindRecordedSession('s1').catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ApiError);
    expect((error as ApiError).code).toBe('session_bound');
  });
});
