import { useTranslation } from '@/shared/i18n/useTranslation';
import { useMeta } from '@/features/settings/api/meta';
import { formatDate } from '@/shared/i18n/format';
import { LOCALE_NAMES, isLocale } from '@/shared/i18n/i18n';
import { useLocale } from '@/shared/i18n/useLocale';

/** Server version and clock from `GET /api/meta`. */
export function AboutSection() {
  const { t } = useTranslation('settings');
  const locale = useLocale();
  const meta = useMeta();

  return (
    <section className="settings-section card" aria-labelledby="settings-about-title" aria-busy={meta.isPending}>
      <h2 id="settings-about-title" className="settings-section__title">
        {t('about.title')}
      </h2>
      {meta.isError ? (
        <div className="settings-error" role="alert">
          <p>{t('about.error')}</p>
          <button type="button" className="button button--secondary" onClick={() => void meta.refetch()}>
            {t('about.retry')}
          </button>
        </div>
      ) : (
        <dl className="settings-list">
          <div className="settings-list__row">
            <dt>{t('about.version')}</dt>
            <dd data-testid="app-version">{meta.data ? meta.data.version : <Placeholder label={t('about.loading')} />}</dd>
          </div>
          <div className="settings-list__row">
            <dt>{t('about.serverTime')}</dt>
            <dd>
              {meta.data ? (
                <time dateTime={meta.data.server_time}>
                  {formatDate(meta.data.server_time, locale, { dateStyle: 'medium', timeStyle: 'short' })}
                </time>
              ) : (
                <Placeholder />
              )}
            </dd>
          </div>
          <div className="settings-list__row">
            <dt>{t('about.defaultLocale')}</dt>
            <dd>
              {meta.data ? (
                isLocale(meta.data.default_locale) ? LOCALE_NAMES[meta.data.default_locale] : meta.data.default_locale
              ) : (
                <Placeholder />
              )}
            </dd>
          </div>
          <div className="settings-list__row">
            <dt>{t('about.webviewHost')}</dt>
            <dd>
              {meta.data ? (
                meta.data.webview_host_enabled ? (
                  t('about.enabled')
                ) : (
                  t('about.disabled')
                )
              ) : (
                <Placeholder />
              )}
            </dd>
          </div>
        </dl>
      )}
    </section>
  );
}

/** Keeps a value's line height while it loads. */
function Placeholder({ label }: { label?: string }) {
  return (
    <span className="settings-placeholder" aria-label={label}>
      {' '}
    </span>
  );
}
