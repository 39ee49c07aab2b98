/**
 * A failure of the API in the page's language: the message of its code (`errors`
 * namespace, `locales/`), with its params formatted for the locale. The server's English
 * `message` is for logs and API clients and is never shown; a code this build does not
 * know gets a generic message. Areas that show refusals await `errorMessagesReady`.
 */
import { currentLocale, i18n } from '@/shared/i18n/i18n';
import { formatDate, formatNumber } from '@/shared/i18n/format';
import { ApiError, type FieldProblem } from './client';
import type { errorsKo } from './locales/ko';

export { errorMessagesReady } from './locales/messages';

/** A code with a message of its own. */
export type ErrorMessageCode = keyof typeof errorsKo.codes;

const ISO_DATE = /^\d{4}-\d{2}-\d{2}$/;
const DECIMAL = /^-?\d+(\.\d+)?$/;

/** The params as the page shows them: dates and numbers in the locale's style, the rest as sent. */
export function wordedParams(params: Readonly<Record<string, string>>): Record<string, string> {
  const locale = currentLocale();
  const out: Record<string, string> = {};
  for (const [name, value] of Object.entries(params)) {
    if (ISO_DATE.test(value)) out[name] = formatDate(`${value}T00:00:00Z`, locale, { dateStyle: 'medium', timeZone: 'UTC' });
    else if (DECIMAL.test(value)) out[name] = formatNumber(value, locale, { maximumFractionDigits: 8 });
    else out[name] = value;
  }
  return out;
}

type LooseT = (key: string, options?: object) => string;

/** The message of `code` with `params`, in the page's language; a generic one for an unknown code. */
export function codeText(code: string, params: Readonly<Record<string, string>> = {}): string {
  const t = i18n.getFixedT(null, 'errors') as unknown as LooseT;
  const key = `codes.${code}`;
  if (i18n.exists(key, { ns: 'errors' })) {
    // A message naming a value the answer does not carry has a plain form without it.
    const template = String(i18n.getResource(currentLocale(), 'errors', key) ?? '');
    const names = [...template.matchAll(/{{\s*(\w+)\s*}}/g)].map((m) => m[1] ?? '');
    if (names.some((name) => params[name] === undefined)) return t(`plain.${code}`);
    return t(key, wordedParams(params));
  }
  return i18n.exists('unknown', { ns: 'errors' }) ? t('unknown') : (i18n.t('apiError.generic') as string);
}

/** The message of any failure: an {@link ApiError}'s code, else the generic message. */
export function errorText(error: unknown): string {
  if (error instanceof ApiError) {
    const params: Record<string, string> = { ...error.params };
    if (error.retryAfter !== undefined) params.retry_after = String(error.retryAfter);
    return codeText(error.code, params);
  }
  return codeText('');
}

/** What is wrong with one field, in the page's language. */
export function problemText(problem: Pick<FieldProblem, 'code' | 'params'>): string {
  return codeText(problem.code, problem.params);
}

/**
 * A refusal (4xx) with a message of its own in the page's language, or `undefined` for
 * any other failure or a code this build does not know (the screen then says what it
 * failed to do).
 */
export function refusalText(error: unknown): string | undefined {
  if (!(error instanceof ApiError) || !error.isClientError) return undefined;
  return i18n.exists(`codes.${error.code}`, { ns: 'errors' }) ? errorText(error) : undefined;
}
