import { beforeAll, describe, expect, it } from 'vitest';
import { setLocale } from '@/shared/i18n/i18n';
import { serverFieldErrors } from '@/shared/ui/form/server-errors';
import { ApiError, CLIENT_ERROR_CODES } from './client';
import { codeText, errorMessagesReady, errorText } from './error-text';
import { errorsEn } from './locales/en';
import { errorsKo } from './locales/ko';
import openapi from './openapi.json';

/** Every code the server may send: the OpenAPI document's `ErrorCode` enum (field errors use the same enum). */
const serverCodes: string[] = openapi.components.schemas.ErrorCode.enum;

beforeAll(async () => {
  await errorMessagesReady;
});

const insufficient = new ApiError({
  status: 422,
  code: 'invalid_input',
  message: 'Some fields are not valid.',
  fields: {
    quantity: {
      code: 'insufficient_quantity',
      params: { instrument: 'KRX:005930', quantity: '50', held: '15', date: '2026-10-01' },
      message: 'sells 50 of KRX:005930 but only 15 is held on 2026-10-01',
    },
  },
});

describe('error messages', () => {
  it('the field errors share the ErrorCode enum', () => {
    expect(openapi.components.schemas.FieldError.properties.code.$ref).toBe('#/components/schemas/ErrorCode');
    expect(serverCodes.length).toBeGreaterThan(50);
  });

  it.each(['ko', 'en'] as const)('%s has a message for every ErrorCode and every client code', (locale) => {
    const codes: Record<string, string> = locale === 'ko' ? errorsKo.codes : errorsEn.codes;
    const missing = [...serverCodes, ...Object.values(CLIENT_ERROR_CODES)].filter((code) => !codes[code]?.trim());
    expect(missing, `codes without a ${locale} message`).toEqual([]);
  });

  it.each(['ko', 'en'] as const)('%s has a plain form of every message that names values', (locale) => {
    const messages = locale === 'ko' ? errorsKo : errorsEn;
    const plain: Record<string, string> = messages.plain;
    const named = Object.entries(messages.codes as Record<string, string>).filter(([, text]) => text.includes('{{'));
    expect(named.length).toBeGreaterThan(0);
    for (const [code] of named) expect(plain[code], code).toBeTruthy();
  });

  it('words a problem whose values did not come without them (a CSV line)', () => {
    expect(codeText('insufficient_quantity')).toBe('그날 보유한 수량보다 많이 팔 수 없습니다.');
  });

  it('words a sell of more than is held in Korean, with its values', () => {
    const { quantity } = serverFieldErrors(insufficient);
    expect(quantity).toBe('2026. 10. 1. 기준 KRX:005930 보유 수량이 15주라서 50주를 팔 수 없습니다.');
    expect(quantity).not.toContain('sells');
  });

  it('words a sell of more than is held in English', async () => {
    await setLocale('en');
    expect(serverFieldErrors(insufficient, { quantity: 'qty' })).toEqual({
      qty: 'You held 15 shares of KRX:005930 on Oct 1, 2026, so you cannot sell 50.',
    });
  });

  it('words a refusal by its code, never with the server’s English', () => {
    const common = new ApiError({ status: 422, code: 'password_too_common', message: 'This password is too common; choose another.' });
    expect(errorText(common)).toBe('너무 흔한 비밀번호입니다. 다른 비밀번호를 골라 주세요.');
    const wait = new ApiError({ status: 429, code: 'rate_limited', message: 'Too many attempts.', params: { retry_after: '30' } });
    expect(errorText(wait)).toBe('시도가 너무 많습니다. 30초 후에 다시 시도해 주세요.');
  });

  it('a code it does not know gets the generic message in the page’s language', () => {
    const fresh = new ApiError({ status: 400, code: 'brand_new_code', message: 'A brand new refusal.' });
    expect(errorText(fresh)).toBe(errorsKo.unknown);
    expect(errorText(new Error('boom'))).toBe(errorsKo.unknown);
    expect(codeText('also_new')).toBe(errorsKo.unknown);
  });
});
