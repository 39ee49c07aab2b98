/**
 * Settings (`/settings`): language, the account, the terms and the privacy policy (route
 * modals `terms`, `privacy`), the operator's contact, feedback.
 */
import type { Area } from '@/shared/area/types';
import { lazyComponent, lazyPage } from '@/shared/area/lazy';
import { SettingsIcon } from '@/shared/ui/icons';

export type { settingsKo as SettingsMessages } from './locales/ko';

// One chunk: the page and its route modals.
const page = () => import('./pages/SettingsPage');

export const settingsArea = {
  id: 'settings',
  // Never a phone tab: reached from 전체 (All).
  nav: { to: '/settings', labelKey: 'nav.settings', icon: SettingsIcon, order: 900, phoneTab: false },
  routes: [{ path: '/settings', Page: lazyPage(page, 'SettingsPage') }],
  modals: {
    terms: lazyComponent(page, 'TermsModal').Component,
    privacy: lazyComponent(page, 'PrivacyModal').Component,
  },
} as const satisfies Area;
