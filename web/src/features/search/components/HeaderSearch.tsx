import { useTranslation } from '@/shared/i18n/useTranslation';
import { AppLink } from '@/shared/ui/AppLink';
import '@/shared/ui/header';
import { SearchIcon } from '@/shared/ui/icons';

/** The header's search button (slot `header`), to `/search`. */
export function HeaderSearch() {
  const { t } = useTranslation();
  return (
    <AppLink to="/search" className="header-icon-button" data-testid="header-search" aria-label={t('header.search')}>
      <SearchIcon size={22} />
    </AppLink>
  );
}
