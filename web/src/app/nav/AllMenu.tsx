import { useTranslation } from '@/shared/i18n/useTranslation';
import { useLocation } from 'react-router';
import type { RouteModalProps } from '@/shared/area/types';
import { AppLink } from '@/shared/ui/AppLink';
import { Modal } from '@/shared/ui/Modal';
import { NAV_ITEMS } from './items';
import { currentId } from './nav';
import './all-menu.css';

/**
 * 전체 (All), route modal `?menu=routeModalTrue`: every area, in the navigation's order.
 * Choosing one replaces the menu's history entry, so "back" from there returns to where
 * the menu was opened.
 */
export function AllMenu({ onClose }: RouteModalProps) {
  const { t } = useTranslation();
  const { pathname } = useLocation();
  const current = currentId(NAV_ITEMS, pathname);
  return (
    <Modal title={t('nav.allTitle')} closeLabel={t('common.close')} onClose={onClose} testId="modal-menu">
      <ul className="all-menu">
        {NAV_ITEMS.map(({ id, to, labelKey, icon: Icon }) => (
          <li key={id}>
            <AppLink
              to={to}
              replace
              className="all-menu__link"
              aria-current={id === current ? 'page' : undefined}
              data-testid={`menu-${id}`}
            >
              <Icon size={24} />
              <span>{t(labelKey)}</span>
            </AppLink>
          </li>
        ))}
      </ul>
    </Modal>
  );
}
