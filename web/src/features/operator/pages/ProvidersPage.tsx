import { useTranslation } from '@/shared/i18n/useTranslation';
import { ApiError } from '@/shared/api/client';
import { RequireAuth } from '@/entities/member/ui/RequireAuth';
import { formatDate } from '@/shared/i18n/format';
import { useLocale } from '@/shared/i18n/useLocale';
import { usePageMeta } from '@/shared/page-meta/usePageMeta';
import { useMeta } from '../api/meta';
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

/** The server's version and clock (`GET /api/meta`). */
function ServerFacts() {
  const { t } = useTranslation('operator');
  const locale = useLocale();
  const meta = useMeta();
  return (
    <section className="card operator__server" aria-labelledby="operator-server-title" aria-busy={meta.isPending}>
      <h2 id="operator-server-title" className="operator__server-title">
        {t('server.title')}
      </h2>
      {meta.isError ? (
        <p role="alert">{t('server.error')}</p>
      ) : (
        <dl className="operator__facts">
          <dt>{t('server.version')}</dt>
          <dd>{meta.data?.version ?? '…'}</dd>
          <dt>{t('server.time')}</dt>
          <dd>
            {meta.data ? (
              <time dateTime={meta.data.server_time}>
                {formatDate(meta.data.server_time, locale, { dateStyle: 'medium', timeStyle: 'medium' })}
              </time>
            ) : (
              '…'
            )}
          </dd>
          <dt>{t('server.webviewHost')}</dt>
          <dd>
            {meta.data?.webview_host_enabled ? (
              <a href="/webview-host.html">{t('server.webviewHostOpen')}</a>
            ) : meta.data ? (
              t('server.webviewHostOff')
            ) : (
              '…'
            )}
          </dd>
        </dl>
      )}
    </section>
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
        <ServerFacts />
        <Providers />
      </div>
    </RequireAuth>
  );
}
