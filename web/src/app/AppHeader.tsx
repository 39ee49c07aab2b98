import { useTranslation } from '@/shared/i18n/useTranslation';
import { AppLink } from '@/shared/ui/AppLink';
import { HouseLogo } from '@/shared/ui/Logo';
import { useHouseLogoUrl } from './house-logo';
import { APP_AREAS } from './app-areas';
import { slotsOf } from './slots';

/** What the areas put at the header's end (`slots.header`): search, the member, badges, the language. */
const ITEMS = slotsOf(APP_AREAS, 'header');

/** Top bar: the wordmark (home link, with the operator's logo when uploaded), then the areas' items. */
export function AppHeader() {
  const { t } = useTranslation();
  const logo = useHouseLogoUrl();
  return (
    <header className="shell__header">
      <div className="shell__header-inner">
        <AppLink to="/" className="wordmark" aria-label={t('header.homeLink')}>
          <HouseLogo src={logo} size={30} />
          <span className="wordmark__text" aria-hidden="true">
            Moat
          </span>
        </AppLink>
        <div className="shell__header-actions">
          {ITEMS.map(({ id, Component }) => (
            <Component key={id} />
          ))}
        </div>
      </div>
    </header>
  );
}
