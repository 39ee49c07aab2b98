/** The language: the header's button and its route modal (`?language=routeModalTrue`). */
import { lazy } from 'react';
import type { Area } from '@/shared/area/types';
import { HeaderLanguage } from './components/HeaderLanguage';

export const languageArea = {
  id: 'language',
  modals: {
    language: lazy(() => import('./components/LanguagePickerModal').then((m) => ({ default: m.LanguagePickerModal }))),
  },
  slots: {
    header: [{ id: 'language', order: 30, Component: HeaderLanguage }],
  },
} as const satisfies Area;
