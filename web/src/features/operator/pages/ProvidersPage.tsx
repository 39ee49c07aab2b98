import { useTranslation } from '@/shared/i18n/useTranslation';
import { ApiError } from '@/shared/api/client';
import { RequireAuth } from '@/entities/member/ui/RequireAuth';
import { formatDate } from '@/shared/i18n/format';
import { useLocale } from '@/shared/i18n/useLocale';
import { usePageMeta } from '@/shared/page-meta/usePageMeta';
import { useProviders, type ProviderStatus } from '../api/providers';
import '../components/operator.css';

export { messagesReady } from '../locales/messages';

type MarketKey = 'krx' | 'us' | 'fx' | 'crypto';
type ProviderKey = 'simulator' | 'yahoo' | 'alpha_vantage' | 'ecb';
const MARKETS: readonly string[] = ['krx', 'us', 'fx', 'crypto'];
const PROVIDERS: readonly string[] = ['simulator', 'yahoo', 'alpha_vantage', 'ecb'];

function ProviderRow({ status }: { status: ProviderStatus }) {
  const { t } = useTranslation('operator');
  const locale = useLocale();
  const when = (iso: string | null | undefined) =>
    iso ? formatDate(iso, locale, { dateStyle: 'medium', timeStyle: 'medium' }) : t('never');
  const market = MARKETS.includes(status.market) ? t(`market.${status.market as MarketKey}`) : status.market;
  const provider = PROVIDERS.includes(status.provider) ? t(`provider.${status.provider as ProviderKey}`) : status.provider;
  return (
    <tr data-testid={`provider-${status.market}`}>
      <th scope="row">{market}</th>
      <td>{provider}</td>
      <td>{when(status.last_success)}</td>
      <td>
        {status.last_error ? (
          <>
            <span className="operator__error">{status.last_error}</span>
            <br />
            <small>{when(status.last_error_at)}</small>
          </>
        ) : (
          t('never')
        )}
      </td>
    </tr>
  );
}

function Providers() {
  const { t } = useTranslation('operator');
  const providers = useProviders();
  if (providers.error instanceof ApiError && providers.error.status === 403) {
    return <p className="card operator__note" role="alert">{t('forbidden')}</p>;
  }
  if (providers.isError) {
    return (
      <div className="card operator__note" role="alert">
        <p>{t('loadError')}</p>
        <button type="button" className="button button--secondary" onClick={() => void providers.refetch()}>
          {t('retry')}
        </button>
      </div>
    );
  }
  return (
    <div className="card operator__table-wrap" aria-busy={providers.isPending}>
      <table className="operator__table">
        <thead>
          <tr>
            <th scope="col">{t('columns.market')}</th>
            <th scope="col">{t('columns.provider')}</th>
            <th scope="col">{t('columns.lastSuccess')}</th>
            <th scope="col">{t('columns.lastError')}</th>
          </tr>
        </thead>
        <tbody>
          {providers.data?.map((s) => <ProviderRow key={s.market} status={s} />)}
        </tbody>
      </table>
    </div>
  );
}

/** `/operator/market`: which provider serves each market, with its last success and error (operators only). */
export function ProvidersPage() {
  const { t } = useTranslation('operator');
  usePageMeta({ title: t('meta.title'), description: t('meta.description') });
  return (
    <RequireAuth>
      <div className="operator">
        <h1 className="operator__title">{t('title')}</h1>
        <p className="operator__lead">{t('lead')}</p>
        <Providers />
      </div>
    </RequireAuth>
  );
}
