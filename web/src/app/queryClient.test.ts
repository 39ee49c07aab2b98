import { describe, expect, it } from 'vitest';
import { ApiError } from '@/shared/api/client';
import { shouldRetry } from './queryClient';

const apiError = (status: number, code = 'x') => new ApiError({ status, code, message: 'm' });

describe('shouldRetry', () => {
  it('never retries a 4xx: the request itself is wrong', () => {
    expect(shouldRetry(0, apiError(400))).toBe(false);
    expect(shouldRetry(0, apiError(404))).toBe(false);
    expect(shouldRetry(0, apiError(422))).toBe(false);
  });

  it('never retries a cancelled request', () => {
    expect(shouldRetry(0, apiError(0, 'aborted'))).toBe(false);
  });

  it('retries server and network failures twice', () => {
    expect(shouldRetry(0, apiError(503))).toBe(true);
    expect(shouldRetry(1, apiError(0, 'network_error'))).toBe(true);
    expect(shouldRetry(2, apiError(500))).toBe(false);
    expect(shouldRetry(0, new Error('other'))).toBe(true);
  });
});
