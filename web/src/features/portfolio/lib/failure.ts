/** How the portfolio screens word a failure (the controls themselves are `shared/ui/form`). */
import { ApiError } from '@/shared/api/client';
import type { PortfolioT } from '../locales/messages';

/**
 * The member-facing message of a failure: ours for the codes we know, else `fallback`
 * (the server's own messages are English, for logs and programs).
 */
export function failureMessage(t: PortfolioT, error: unknown, fallback: string): string {
  if (!(error instanceof ApiError)) return fallback;
  if (error.code === 'network_error') return t('errors.network_error');
  if (error.code === 'not_found') return t('errors.not_found');
  return fallback;
}

