import { ApiError } from '@/shared/api/client';

/**
 * The server's per-field messages of a rejected form (`ApiError.fields`), under the
 * form's own field names (`aliases` maps the API's name to the form's). Empty for any
 * other failure. The one place that reads the error body's `fields`.
 */
export function serverFieldErrors(error: unknown, aliases: Readonly<Record<string, string>> = {}): Record<string, string> {
  if (!(error instanceof ApiError)) return {};
  const out: Record<string, string> = {};
  for (const [field, message] of Object.entries(error.fields)) out[aliases[field] ?? field] = message;
  return out;
}
