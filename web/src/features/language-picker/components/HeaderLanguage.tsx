import { useTranslation } from '@/shared/i18n/useTranslation';
import { useModalRoute } from '@/shared/hooks/useModalRoute';
import '@/shared/ui/header';
import { GlobeIcon } from '@/shared/ui/icons';

/** The header's language button (slot `header`): opens the language modal (`?language=routeModalTrue`). */
export function HeaderLanguage() {
  const { t, i18n } = useTranslation();
  const language = useModalRoute('language');
  return (
    <button type="button" className="header-icon-button" data-testid="open-language" aria-label={t('header.language')} onClick={language.open}>
      <GlobeIcon size={20} />
      <span className="header-icon-button__code" aria-hidden="true">
        {i18n.language.toUpperCase()}
      </span>
    </button>
  );
}
