import { useTranslation } from 'react-i18next';
import { AppNavLink } from '@/shared/ui/AppLink';
import { NAV_ITEMS } from './routes';

/** The navigation: one element, laid out as a side bar (≥ 768 px) or a bottom tab bar by CSS. */
export function AppNav() {
  const { t } = useTranslation();
  return (
    <nav className="shell__nav" aria-label={t('nav.label')} data-testid="app-nav">
      <ul className="nav-list">
        {NAV_ITEMS.map(({ to, labelKey, icon: Icon, end }) => (
          <li key={to} className="nav-list__item">
            <AppNavLink to={to} end={end} className="nav-link" data-testid={`nav-${labelKey.slice('nav.'.length)}`}>
              <Icon size={24} />
              <span className="nav-link__label">{t(labelKey)}</span>
            </AppNavLink>
          </li>
        ))}
      </ul>
    </nav>
  );
}
