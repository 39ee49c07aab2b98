import { useTranslation } from '@/shared/i18n/useTranslation';
import { formatDate } from '@/shared/i18n/format';
import { useLocale } from '@/shared/i18n/useLocale';
import type { RouteModalProps } from '@/shared/area/types';
import { Modal } from '@/shared/ui/Modal';
import { useLegal, type LegalKind } from '../api/legal';
import './settings.css';

/** The current text of the terms or the privacy policy (`GET /api/legal`). */
function LegalModal({ kind, onClose }: RouteModalProps & { kind: LegalKind }) {
  const { t } = useTranslation('settings');
  const { t: tShell } = useTranslation();
  const locale = useLocale();
  const legal = useLegal();
  const doc = legal.data?.find((d) => d.kind === kind);
  return (
    <Modal title={t(`legal.${kind}`)} closeLabel={tShell('common.close')} onClose={onClose} testId={`modal-${kind}`}>
      {legal.isPending ? (
        <p className="settings-muted" aria-busy="true">
          {t('legal.loading')}
        </p>
      ) : legal.isError ? (
        <div className="settings-error" role="alert">
          <p>{t('legal.error')}</p>
          <button type="button" className="button button--secondary" onClick={() => void legal.refetch()}>
            {t('legal.retry')}
          </button>
        </div>
      ) : doc ? (
        <article className="settings-legal">
          <p className="settings-muted">
            {t('legal.version', { version: doc.version, date: formatDate(doc.published_at, locale, { dateStyle: 'long' }) })}
          </p>
          {doc.body.split(/\n\s*\n/).map((paragraph, i) => (
            <p key={i}>{paragraph}</p>
          ))}
        </article>
      ) : (
        <p className="settings-muted">{t('legal.none')}</p>
      )}
    </Modal>
  );
}

export function TermsModal(props: RouteModalProps) {
  return <LegalModal kind="terms" {...props} />;
}

export function PrivacyModal(props: RouteModalProps) {
  return <LegalModal kind="privacy" {...props} />;
}
