import { memo, useState } from 'react';
import type { Transaction } from '@/entities/transaction/api/types';
import { formatQuantity } from '@/shared/i18n/format';
import { useLocale } from '@/shared/i18n/useLocale';
import { AppLink } from '@/shared/ui/AppLink';
import { Modal } from '@/shared/ui/Modal';
import { useToast } from '@/shared/ui/toast';
import { failureMessage } from '../lib/failure';
import { formatTradeDate, times } from '../lib/format';
import { usePortfolioT } from '../locales/messages';
import { Amount, LoadFailed } from './ui';
import { useDeleteTransaction } from '../api/delete-transaction';
import { useTransactions } from '../api/transactions';

interface Props {
  portfolioId: number;
  /** Instrument id → name, from the valuation (instruments no longer held show their ticker). */
  names: ReadonlyMap<string, string>;
  /** The transaction the figures stop before (it cannot apply), marked for fixing. */
  stoppedAt?: number | undefined;
}

/** The portfolio's transactions, newest first, each with edit and (confirmed) delete. */
export const TransactionsSection = memo(function TransactionsSection({ portfolioId, names, stoppedAt }: Props) {
  const t = usePortfolioT();
  const locale = useLocale();
  const toast = useToast();
  const transactions = useTransactions(portfolioId);
  const remove = useDeleteTransaction(portfolioId);
  const [confirming, setConfirming] = useState<Transaction | null>(null);
  const list = transactions.data ? [...transactions.data].reverse() : undefined;

  const describe = (tx: Transaction) => ({ date: formatTradeDate(tx.trade_date, locale), kind: t(`kinds.${tx.kind}`) });

  const onConfirm = () => {
    if (!confirming) return;
    const tx = confirming;
    remove.mutate(tx.id, {
      onSuccess: () => {
        setConfirming(null);
        toast.show(t('transactions.deleted'), { tone: 'success' });
      },
      onError: (error) => {
        setConfirming(null);
        toast.show(failureMessage(t, error, t('transactions.deleteFailed')), { tone: 'error' });
      },
    });
  };

  return (
    <section className="card pf-section" aria-labelledby="pf-transactions-title" data-testid="transactions">
      <div className="pf-section__head">
        <h2 id="pf-transactions-title" className="pf-section__title">
          {t('transactions.title')}
        </h2>
        <AppLink to={`/portfolios/${portfolioId}/transactions/new`} className="button button--secondary">
          {t('detail.addTransaction')}
        </AppLink>
      </div>
      {transactions.isError && !list ? (
        <LoadFailed onRetry={() => void transactions.refetch()} />
      ) : !list ? (
        <div className="pf-skeleton__rows" aria-busy="true" />
      ) : list.length === 0 ? (
        <p className="pf-empty">{t('transactions.empty')}</p>
      ) : (
        <ul className="pf-tx-list" data-testid="transaction-list">
          {list.map((tx) => {
            const d = describe(tx);
            const name = tx.instrument_id ? (names.get(tx.instrument_id) ?? tx.instrument_id.slice(tx.instrument_id.indexOf(':') + 1)) : '';
            return (
              <li key={tx.id} className={`pf-tx${tx.id === stoppedAt ? ' pf-tx--issue' : ''}`} data-testid="transaction" data-id={tx.id}>
                <span className="pf-tx__date">
                  {d.date}
                  {tx.id === stoppedAt && (
                    <span className="pf-badge pf-badge--issue" data-testid="transaction-issue">
                      {t('ledger.badge')}
                    </span>
                  )}
                </span>
                <span className={`pf-tx__kind pf-tx__kind--${tx.kind}`}>{d.kind}</span>
                <span className="pf-tx__what">
                  {name && <span className="pf-tx__name">{name}</span>}
                  <TxDetail tx={tx} />
                </span>
                <span className="pf-tx__amount">
                  {tx.kind !== 'split' && <Amount value={times(tx.quantity, tx.price)} currency={tx.currency} size="sm" />}
                </span>
                <span className="pf-tx__actions">
                  <AppLink
                    to={`/portfolios/${portfolioId}/transactions/${tx.id}`}
                    className="pf-icon-button"
                    aria-label={t('transactions.editLabel', d)}
                    data-testid="transaction-edit"
                  >
                    {t('transactions.edit')}
                  </AppLink>
                  <button
                    type="button"
                    className="pf-icon-button pf-icon-button--danger"
                    aria-label={t('transactions.deleteLabel', d)}
                    onClick={() => setConfirming(tx)}
                    data-testid="transaction-delete"
                  >
                    {t('transactions.delete')}
                  </button>
                </span>
              </li>
            );
          })}
        </ul>
      )}
      {confirming && (
        <Modal title={t('transactions.confirmTitle')} closeLabel={t('transactions.close')} onClose={() => setConfirming(null)} testId="delete-dialog">
          <p className="pf-dialog__body">{t('transactions.confirmBody', describe(confirming))}</p>
          <div className="pf-form__actions">
            <button type="button" className="button button--secondary" onClick={() => setConfirming(null)} disabled={remove.isPending} data-autofocus>
              {t('transactions.cancel')}
            </button>
            <button type="button" className="button pf-button--danger" onClick={onConfirm} disabled={remove.isPending} data-testid="delete-confirm">
              {t('transactions.confirm')}
            </button>
          </div>
        </Modal>
      )}
    </section>
  );
});

/** `10주 × ₩71,200`, the amount of a cash movement, or a split's ratio. */
function TxDetail({ tx }: { tx: Transaction }) {
  const t = usePortfolioT();
  const locale = useLocale();
  if (tx.kind === 'split' && tx.split) {
    return <span className="pf-tx__detail">{t('transactions.splitRatio', { numerator: tx.split.numerator, denominator: tx.split.denominator })}</span>;
  }
  if (tx.kind === 'buy' || tx.kind === 'sell' || tx.kind === 'dividend') {
    return (
      <span className="pf-tx__detail">
        {formatQuantity(tx.quantity, locale)} × <Amount value={tx.price} currency={tx.currency} unit size="sm" />
      </span>
    );
  }
  return null;
}
