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
 * screens use), then each portfolio at a glance (name, value, return; a tap opens it),
 * with the lock's masking. Nothing for a visitor (see `HomeInvite`).
 */
export function HomeMoney() {
  const { isLoggedIn } = useAuth();
  return isLoggedIn ? <MemberMoney /> : null;
}

/** Home, for a visitor, after the market (slot `home`): sign up or log in to see their own money. */
export function HomeInvite() {
  const { isLoggedIn } = useAuth();
  return isLoggedIn ? null : <VisitorInvite />;
}

function VisitorInvite() {
  const t = usePortfolioT();
  return (
    <SectionCard title={t('home.visitorTitle')} testId="home-invite">
      <div className="section-card__prompt">
        <p className="section-card__prompt-body">{t('home.visitorBody')}</p>
        <div className="home-money__invite">
          <AppLink to="/signup" className="button button--primary">
            {t('home.signup')}
          </AppLink>
          <AppLink to="/login" className="button button--secondary">
            {t('home.login')}
          </AppLink>
        </div>
      </div>
    </SectionCard>
  );
}

function MemberMoney() {
  const t = usePortfolioT();
  const locale = useLocale();
  const [mode] = useCurrencyMode();
  const [locked] = useAmountsLocked();
  const list = usePortfolioList(currencyParam(mode));
  const data = list.data;
  const amount = (value: string, signed = false) => amountIn(value, data?.meta.currency ?? 'KRW', signed);
  const amountIn = (value: string, currency: string, signed = false) =>
    locked ? (
      <span data-masked="true">
        <span aria-hidden="true">{MASKED_AMOUNT}</span>
        <span className="visually-hidden">{t('masked')}</span>
      </span>
    ) : (
      formatAmount(value, currency, locale, signed)
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
              <dt>{t('home.total')}</dt>
              <dd data-testid="home-money-total">{amount(data.meta.total_value)}</dd>
            </div>
            <div className="home-money__figure">
              <dt>{t('home.today')}</dt>
              <dd>
                <span className={`home-money__${direction(data.meta.day_change)}`}>{amount(data.meta.day_change, true)}</span>{' '}
                {percent(data.meta.day_change_percent)}
              </dd>
            </div>
            <div className="home-money__figure">
              <dt>{t('home.totalReturn')}</dt>
              <dd>{percent(data.meta.return_percent)}</dd>
            </div>
          </dl>
          <ul className="home-money__list" aria-label={t('home.list')}>
            {data.portfolios.map(({ portfolio, totals }) => (
              <li key={portfolio.id}>
                <AppLink to={`/portfolios/${portfolio.id}`} className="home-money__portfolio">
                  <span className="home-money__name">{portfolio.name}</span>
                  <span className="home-money__value">{amountIn(totals.total_value, totals.currency)}</span>
                  {percent(totals.return_percent)}
                </AppLink>
              </li>
            ))}
          </ul>
        </>
      )}
    </SectionCard>
  );
}
