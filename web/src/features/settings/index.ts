/** Settings (`/settings`): language, the app bridge, feedback, about. */
import type { Area } from '@/shared/area/types';
import { lazyPage } from '@/shared/area/lazy';
import { SettingsIcon } from '@/shared/ui/icons';

export type { settingsKo as SettingsMessages } from './locales/ko';

export const settingsArea = {
  id: 'settings',
  // Never a phone tab: reached from 전체 (All).
  nav: { to: '/settings', labelKey: 'nav.settings', icon: SettingsIcon, order: 900, phoneTab: false },
  routes: [{ path: '/settings', Page: lazyPage(() => import('./pages/SettingsPage'), 'SettingsPage') }],
} as const satisfies Area;
