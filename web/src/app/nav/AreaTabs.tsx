import { useTranslation } from '@/shared/i18n/useTranslation';
import { useLocation } from 'react-router';
import { AppLink } from '@/shared/ui/AppLink';
import { NAV_ITEMS } from './items';
import { groupTabs } from './nav';

/**
 * The tabs of a group of areas, above each of their pages (포트폴리오 | 배당): areas whose
 * navigation entries share a `group`.
 */
export function AreaTabs() {
  const { t } = useTranslation();
  const { pathname } = useLocation();
  const tabs = groupTabs(NAV_ITEMS, pathname);
  if (tabs.length === 0) return null;
  return (
    <nav className="area-tabs" aria-label={t('nav.sections', { name: t(tabs[0]!.labelKey) })}>
      <ul className="area-tabs__list">
        {tabs.map(({ id, to, labelKey }) => (
          <li key={id}>
            <AppLink to={to} className="area-tabs__tab" aria-current={pathname === to ? 'page' : undefined} data-testid={`area-tab-${id}`}>
              {t(labelKey)}
            </AppLink>
          </li>
        ))}
      </ul>
    </nav>
  );
}
