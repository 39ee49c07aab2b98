/**
 * Validation problems (`moat_portfolio::IssueCode`) in the member's language: a CSV
 * line's, or the transaction a portfolio's figures stop before.
 */
import type { PortfolioKey, PortfolioT } from '../locales/messages';
import type { ImportError } from '../api/import';

export const ISSUE_CODES = [
  'currency_unsupported',
  'instrument_missing',
  'instrument_unexpected',
  'quantity_not_positive',
  'price_not_positive',
  'fractional_shares',
  'fee_negative',
  'tax_negative',
  'fx_rate_missing',
  'fx_rate_not_positive',
  'split_ratio_invalid',
  'insufficient_quantity',
  'split_not_held',
  'currency_mismatch',
  'dividend_not_held',
  'fx_rate_unavailable',
  'empty_file',
  'missing_column',
  'malformed_row',
  'invalid_date',
  'invalid_type',
  'invalid_number',
  'invalid_instrument',
  'unknown_instrument',
  'invalid_ratio',
] as const;

/** A row problem in the member's language (by its code), else the server's message. */
export function issueMessage(t: PortfolioT, issue: Pick<ImportError, 'code' | 'message'>): string {
  const code = ISSUE_CODES.find((c) => c === issue.code);
  return code ? t(`issues.${code}` as PortfolioKey) : issue.message;
}

