/**
 * Settings (`/settings`): language, the account, the terms and the privacy policy (route
 * modals `terms`, `privacy`), the operator's contact, feedback.
 */
import { lazy } from 'react';
import type { Area } from '@/shared/area/types';
import { lazyPage } from '@/shared/area/lazy';
import { SettingsIcon } from '@/shared/ui/icons';

export type { settingsKo as SettingsMessages } from './locales/ko';

export const settingsArea = {
  id: 'settings',
  // Never a phone tab: reached from 전체 (All).
  nav: { to: '/settings', labelKey: 'nav.settings', icon: SettingsIcon, order: 900, phoneTab: false },
  routes: [{ path: '/settings', Page: lazyPage(() => import('./pages/SettingsPage'), 'SettingsPage') }],
  modals: {
    terms: lazy(async () => {
      const m = await import('./components/LegalModal');
      await m.messagesReady;
      return { default: m.TermsModal };
    }),
    privacy: lazy(async () => {
      const m = await import('./components/LegalModal');
      await m.messagesReady;
      return { default: m.PrivacyModal };
    }),
  },
} as const satisfies Area;
