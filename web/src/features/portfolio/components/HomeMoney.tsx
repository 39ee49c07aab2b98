import { direction } from '@/entities/instrument/model/format';
import { useAmountsLocked } from '@/entities/member/model/amounts-lock';
import { useAuth } from '@/entities/member/model/auth-context';
import { formatAmount, formatPercent, MASKED_AMOUNT } from '@/shared/i18n/format';
import { useLocale } from '@/shared/i18n/useLocale';
import { AppLink } from '@/shared/ui/AppLink';
import { SectionCard } from '@/shared/ui/card/SectionCard';
import { SectionError } from '@/shared/ui/card/SectionError';
import { usePortfolioList } from '../api/list';
import { usePortfolioT } from '../locales/messages';
import { currencyParam, useCurrencyMode } from '../lib/prefs';
import './home-money.css';

export { messagesReady } from '../locales/messages';

/**
 * Home's first section (slot `home`): the member's money, every portfolio combined (the
 * meta portfolio's total, today's change and return, in the currency mode the portfolio
 * screens use), with the lock's masking. Nothing for a visitor.
 */
export function HomeMoney() {
  const { isLoggedIn } = useAuth();
  return isLoggedIn ? <MemberMoney /> : null;
}

function MemberMoney() {
  const t = usePortfolioT();
  const locale = useLocale();
  const [mode] = useCurrencyMode();
  const [locked] = useAmountsLocked();
  const list = usePortfolioList(currencyParam(mode));
  const data = list.data;
  const amount = (value: string, signed = false) =>
    locked ? (
      <span data-masked="true">
        <span aria-hidden="true">{MASKED_AMOUNT}</span>
        <span className="visually-hidden">{t('masked')}</span>
      </span>
    ) : (
      formatAmount(value, data?.meta.currency ?? 'KRW', locale, signed)
    );
  const percent = (value: string) => <span className={`home-money__${direction(value)}`}>{formatPercent(value, locale)}</span>;

  return (
    <SectionCard
      title={t('home.title')}
      testId="home-money"
      actions={
        data && data.portfolios.length > 0 ? (
          <AppLink to="/portfolios" className="section-card__link">
            {t('home.open')}
          </AppLink>
        ) : undefined
      }
    >
      {list.isError && !data ? (
        <SectionError message={t('loadFailed')} retryLabel={t('retry')} onRetry={() => void list.refetch()} />
      ) : !data ? (
        <div className="home-money__loading" aria-busy="true" />
      ) : data.portfolios.length === 0 ? (
        <div className="section-card__prompt">
          <p className="section-card__prompt-body">{t('home.empty')}</p>
          <AppLink to="/portfolios" className="button button--primary">
            {t('home.create')}
          </AppLink>
        </div>
      ) : (
        <>
          <dl className="home-money">
            <div className="home-money__total">
              <dt>{t('figures.totalValue')}</dt>
              <dd data-testid="home-money-total">{amount(data.meta.total_value)}</dd>
            </div>
            <div className="home-money__figure">
              <dt>{t('figures.todayChange')}</dt>
              <dd>
                <span className={`home-money__${direction(data.meta.day_change)}`}>{amount(data.meta.day_change, true)}</span>{' '}
                {percent(data.meta.day_change_percent)}
              </dd>
            </div>
            <div className="home-money__figure">
              <dt>{t('figures.return')}</dt>
              <dd>{percent(data.meta.return_percent)}</dd>
            </div>
          </dl>
          <p className="home-money__count">{t('home.portfolios', { count: data.portfolios.length })}</p>
        </>
      )}
    </SectionCard>
  );
}
