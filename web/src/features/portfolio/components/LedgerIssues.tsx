/**
 * A broken ledger, named: old data can hold a transaction that cannot apply (a sell of
 * more than was held). The server then values the portfolio up to that transaction and
 * names it (`ledger_issue(s)`, docs/portfolio.md); these pieces tell the member which
 * transaction, why, and take them to its edit form.
 */
import { useQuery } from '@tanstack/react-query';
import { formatQuantity } from '@/shared/i18n/format';
import { useLocale } from '@/shared/i18n/useLocale';
import { instrumentNames } from '@/entities/instrument/model/ids';
import { instrumentQueryOptions } from '@/entities/instrument/api/instrument';
import type { LedgerIssue, TxKind } from '@/entities/transaction/api/types';
import { AppLink } from '@/shared/ui/AppLink';
import { formatTradeDate } from '../lib/format';
import { issueMessage } from '../lib/issues';
import { usePortfolioT, type PortfolioT } from '../locales/messages';
import { useTransactions } from '../api/transactions';

/** Codes with a sentence of their own; the others say the issue, then that the figures stop. */
const LEDGER_REASONS = ['insufficient_quantity', 'split_not_held', 'currency_mismatch'] as const;

/** Kinds whose quantity is a number of shares. */
const SHARE_KINDS: readonly TxKind[] = ['buy', 'sell', 'dividend'];

/** The edit form of the transaction an issue names. */
export const fixPath = (issue: Pick<LedgerIssue, 'portfolio_id' | 'transaction_id'>) =>
  `/portfolios/${issue.portfolio_id}/transactions/${issue.transaction_id}`;

/** Why the figures stop before the transaction, from the issue's code. */
function reason(t: PortfolioT, issue: LedgerIssue): string {
  const code = LEDGER_REASONS.find((c) => c === issue.code);
  return code ? t(`ledger.reasons.${code}`) : t('ledger.reasons.other', { issue: issueMessage(issue) });
}

/**
 * The transaction an issue names, in words (`2026. 10. 1. 삼성전자 매도 50주`): its date,
 * instrument and kind, and its share count once the portfolio's transactions are known.
 */
function useIssueWhat(issue: LedgerIssue, names: ReadonlyMap<string, string>): string {
  const t = usePortfolioT();
  const locale = useLocale();
  const instrumentId = issue.instrument_id;
  const known = instrumentId ? names.get(instrumentId) : undefined;
  const detail = useQuery({ ...instrumentQueryOptions(instrumentId ?? ''), enabled: instrumentId !== null && known === undefined });
  const transactions = useTransactions(issue.portfolio_id);
  const tx = transactions.data?.find((x) => x.id === issue.transaction_id);
  const name = instrumentId
    ? (known ?? (detail.data ? instrumentNames(detail.data, locale).primary : undefined) ?? instrumentId.slice(instrumentId.indexOf(':') + 1))
    : '';
  const values = { date: formatTradeDate(issue.trade_date, locale), kind: t(`kinds.${issue.kind}`), name };
  if (name && tx && SHARE_KINDS.includes(issue.kind)) return t('ledger.what.trade', { ...values, quantity: formatQuantity(tx.quantity, locale) });
  return name ? t('ledger.what.instrument', values) : t('ledger.what.plain', values);
}

function IssueLine({ issue, names, portfolioName }: { issue: LedgerIssue; names: ReadonlyMap<string, string>; portfolioName?: string | undefined }) {
  const t = usePortfolioT();
  const what = useIssueWhat(issue, names);
  return (
    <li className="pf-ledger__item" data-testid="ledger-issue" data-transaction={issue.transaction_id}>
      <span className="pf-ledger__text">
        {portfolioName !== undefined && <strong>{portfolioName}: </strong>}
        {t('ledger.line', { what, reason: reason(t, issue) })}
      </span>
      <AppLink to={fixPath(issue)} className="button button--secondary pf-ledger__fix" aria-label={t('ledger.fixLabel', { what })} data-testid="ledger-fix">
        {t('ledger.fix')}
      </AppLink>
    </li>
  );
}

interface BannerProps {
  issues: readonly LedgerIssue[];
  /** Instrument id → name, from the valuation (others are looked up). */
  names: ReadonlyMap<string, string>;
  /** The meta portfolio: several portfolios, each named. */
  portfolioNames?: ReadonlyMap<number, string> | undefined;
}

/** The portfolio page's banner: which transaction stops the figures, why, and a way to fix it. */
export function LedgerIssueBanner({ issues, names, portfolioNames }: BannerProps) {
  const t = usePortfolioT();
  if (issues.length === 0) return null;
  return (
    <div className="pf-ledger" role="alert" data-testid="ledger-issues">
      <WarningIcon />
      <div className="pf-ledger__body">
        <p className="pf-ledger__title">{portfolioNames ? t('ledger.metaTitle') : t('ledger.title')}</p>
        <ul className="pf-ledger__list">
          {issues.map((issue) => (
            <IssueLine
              key={`${issue.portfolio_id}-${issue.transaction_id}`}
              issue={issue}
              names={names}
              portfolioName={portfolioNames ? (portfolioNames.get(issue.portfolio_id) ?? '') : undefined}
            />
          ))}
        </ul>
        <p className="pf-ledger__hint">{t('ledger.hint')}</p>
      </div>
    </div>
  );
}

/** A list card's line: the figures stop at a date (the page says which transaction). */
export function LedgerIssueNote({ issue, meta = false }: { issue?: LedgerIssue | undefined; meta?: boolean }) {
  const t = usePortfolioT();
  const locale = useLocale();
  return (
    <span className="pf-card__issue" data-testid="card-ledger-issue">
      <WarningIcon />
      <span>
        {meta || !issue
          ? t('ledger.metaTitle')
          : // The date stays on one line (`2026. 9. 26.` has spaces).
            t('ledger.card', { date: formatTradeDate(issue.trade_date, locale).replace(/ /g, '\u00a0') })}
      </span>
    </span>
  );
}

export function WarningIcon() {
  return (
    <svg className="pf-warning-icon" viewBox="0 0 24 24" width="20" height="20" fill="none" stroke="currentColor" strokeWidth="2" aria-hidden="true">
      <path d="M12 3.5 2.5 20h19L12 3.5Z" strokeLinejoin="round" />
      <path d="M12 10v4.5" strokeLinecap="round" />
      <circle cx="12" cy="17.25" r="0.6" fill="currentColor" />
    </svg>
  );
}
