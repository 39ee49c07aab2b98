/**
 * Validation problems (`moat_portfolio::IssueCode`, codes of the API's `ErrorCode`) in
 * the member's language: a CSV line's, or the transaction a portfolio's figures stop
 * before. The wording is the app's one message per code (`shared/api/error-text.ts`).
 */
import { codeText } from '@/shared/api/error-text';
import type { ImportError } from '../api/import';

/** A row problem in the member's language, by its code and params (never the server's English). */
export function issueMessage(issue: Pick<ImportError, 'code'> & { params?: Readonly<Record<string, string>> }): string {
  return codeText(issue.code, issue.params ?? {});
}
