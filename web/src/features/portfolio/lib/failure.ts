/** How the portfolio screens word a failure (the controls themselves are `shared/ui/form`). */
import { ApiError } from '@/shared/api/client';
import { refusalText } from '@/shared/api/error-text';
import type { PortfolioT } from '../locales/messages';

/**
 * The member-facing message of a failure: a refusal (4xx) or a network failure in the
 * app's words for its code, else `fallback` (what the screen failed to do). The server's
 * own messages are English, for logs and programs, and never shown.
 */
export function failureMessage(t: PortfolioT, error: unknown, fallback: string): string {
  if (!(error instanceof ApiError)) return fallback;
  if (error.code === 'network_error') return t('errors.network_error');
  if (error.code === 'not_found') return t('errors.not_found');
  return refusalText(error) ?? fallback;
}
