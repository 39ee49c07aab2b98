import { useTranslation } from 'react-i18next';
import { useModalRoute } from '@/shared/hooks/useModalRoute';
import { AppLink } from '@/shared/ui/AppLink';
import { LogoMark } from '@/shared/ui/Logo';
import { GlobeIcon } from './icons';

/** Top bar: the wordmark (home link) and the language button. */
export function AppHeader() {
  const { t, i18n } = useTranslation();
  const language = useModalRoute('language');
  return (
    <header className="shell__header">
      <div className="shell__header-inner">
        <AppLink to="/" className="wordmark" aria-label={t('header.homeLink')}>
          <LogoMark size={30} />
          <span className="wordmark__text" aria-hidden="true">
            Moat
          </span>
        </AppLink>
        <button
          type="button"
          className="language-button"
          data-testid="open-language"
          aria-label={t('header.language')}
          onClick={language.open}
        >
          <GlobeIcon size={20} />
          <span className="language-button__code" aria-hidden="true">
            {i18n.language.toUpperCase()}
          </span>
        </button>
      </div>
    </header>
  );
}
