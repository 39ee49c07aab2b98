import { useTranslation } from '@/shared/i18n/useTranslation';
import { useLocation } from 'react-router';
import { useModalRoute } from '@/shared/hooks/useModalRoute';
import { AppLink } from '@/shared/ui/AppLink';
import { GridIcon } from '@/shared/ui/icons';
import { NAV_ITEMS, PHONE_TAB_IDS } from './items';
import { currentId } from './nav';

/**
 * The navigation: one element, laid out by CSS as a side bar listing every area (≥ 768
 * px) or a phone's bottom bar of five tabs, the first four areas that may be tabs and
 * 전체 (All), which opens the list of every area (`?menu=routeModalTrue`).
 */
export function AppNav() {
  const { t } = useTranslation();
  const { pathname } = useLocation();
  const menu = useModalRoute('menu');
  const current = currentId(NAV_ITEMS, pathname);
  // On a phone an area without a tab of its own shows as its group's tab.
  const phoneCurrent = currentId(NAV_ITEMS, pathname, PHONE_TAB_IDS);
  return (
    <nav className="shell__nav" aria-label={t('nav.label')} data-testid="app-nav">
      <ul className="nav-list">
        {NAV_ITEMS.map(({ id, to, labelKey, icon: Icon }) => (
          <li key={id} className={`nav-list__item${PHONE_TAB_IDS.has(id) ? '' : ' nav-list__item--wide'}`}>
            <AppLink
              to={to}
              className={`nav-link${id === current ? ' active' : ''}${id === phoneCurrent && id !== current ? ' nav-link--phone-current' : ''}`}
              aria-current={id === current ? 'page' : undefined}
              data-testid={`nav-${id}`}
            >
              <Icon size={24} />
              <span className="nav-link__label">{t(labelKey)}</span>
            </AppLink>
          </li>
        ))}
        <li className="nav-list__item nav-list__item--phone">
          <button
            type="button"
            className={`nav-link${menu.isOpen ? ' active' : ''}`}
            aria-haspopup="dialog"
            aria-expanded={menu.isOpen}
            onClick={menu.open}
            data-testid="nav-all"
          >
            <GridIcon size={24} />
            <span className="nav-link__label">{t('nav.all')}</span>
          </button>
        </li>
      </ul>
    </nav>
  );
}
