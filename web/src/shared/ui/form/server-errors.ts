import { ApiError } from '@/shared/api/client';
import { problemText } from '@/shared/api/error-text';

/**
 * The server's per-field problems of a rejected form (`ApiError.fieldProblems`), worded
 * in the page's language from their codes and params, under the form's own field names
 * (`aliases` maps the API's name to the form's). Empty for any other failure. The one
 * place that reads the error body's `fields`; the server's English never reaches a form.
 */
export function serverFieldErrors(
  error: unknown,
  aliases: Readonly<Record<string, string>> = {},
  /** Values the page words better than the server (`{ instrument: '삼성전자' }` for `KRX:005930`). */
  known: Readonly<Record<string, string>> = {},
): Record<string, string> {
  if (!(error instanceof ApiError)) return {};
  const out: Record<string, string> = {};
  for (const [field, problem] of Object.entries(error.fieldProblems)) {
    const params = Object.fromEntries(Object.entries(problem.params).map(([name, value]) => [name, known[name] ?? value]));
    out[aliases[field] ?? field] = problemText({ code: problem.code, params });
  }
  return out;
}
