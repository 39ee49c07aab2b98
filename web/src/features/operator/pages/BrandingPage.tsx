/** `/operator/branding`: the house logo and the share card (operators only). */
import { useId, type ChangeEvent } from 'react';
import { useTranslation } from '@/shared/i18n/useTranslation';
import { RequireAuth } from '@/entities/member/ui/RequireAuth';
import { errorText } from '@/shared/api/error-text';
import { usePageMeta } from '@/shared/page-meta/usePageMeta';
import { useMeta } from '../api/meta';
import { useBrandingChange, type BrandingSlot } from '../api/branding';
import { OperatorOnly } from './ObserveConsole';
import '../components/operator.css';

/** The image types the server accepts (it checks the bytes too). */
const ACCEPT = 'image/png,image/jpeg,image/webp';

function SlotSection({ slot, url }: { slot: BrandingSlot; url: string | null | undefined }) {
  const { t } = useTranslation('operator');
  const id = useId();
  const change = useBrandingChange(slot);
  // What was done is read from the mutation's own state, not set from a per-call
  // `onSuccess`: under load, a file chosen before the section's effects had run saved the
  // image but never called the per-call callback, and the page said nothing.
  const done = change.isSuccess ? (change.variables ? 'saved' : 'removed') : null;
  const texts = slot === 'logo' ? 'branding.logo' : 'branding.shareCard';
  const submit = (image: File | null) => change.mutate(image);
  const onFile = (e: ChangeEvent<HTMLInputElement>) => {
    const file = e.target.files?.[0];
    e.target.value = '';
    if (file) submit(file);
  };
  return (
    <section className="card operator__branding" aria-labelledby={`${id}-title`} aria-busy={change.isPending}>
      <h2 id={`${id}-title`} className="operator__server-title">
        {t(`${texts}.title`)}
      </h2>
      <p className="operator__lead">{t(`${texts}.hint`)}</p>
      {url ? (
        <img className={`operator__branding-preview operator__branding-preview--${slot}`} src={url} alt={t(`${texts}.preview`)} />
      ) : (
        <p>{t('branding.none')}</p>
      )}
      <div className="operator__branding-actions">
        <label className="button button--secondary">
          {t('branding.choose')}
          <input className="visually-hidden" type="file" accept={ACCEPT} onChange={onFile} disabled={change.isPending} />
        </label>
        {url ? (
          <button type="button" className="button button--secondary" onClick={() => submit(null)} disabled={change.isPending}>
            {t('branding.remove')}
          </button>
        ) : null}
      </div>
      {change.isError ? (
        <p className="operator__error" role="alert">
          {errorText(change.error)}
        </p>
      ) : done ? (
        <p role="status">{t(`branding.${done}`)}</p>
      ) : null}
    </section>
  );
}

export function BrandingPage() {
  const { t } = useTranslation('operator');
  usePageMeta({ title: t('branding.meta.title'), description: t('branding.meta.description') });
  const meta = useMeta();
  return (
    <RequireAuth>
      <OperatorOnly>
        <div className="operator">
          <h1 className="operator__title">{t('branding.title')}</h1>
          <p className="operator__lead">{t('branding.lead')}</p>
          <SlotSection slot="logo" url={meta.data?.logo_url} />
          <SlotSection slot="share-card" url={meta.data?.share_card_url} />
        </div>
      </OperatorOnly>
    </RequireAuth>
  );
}
