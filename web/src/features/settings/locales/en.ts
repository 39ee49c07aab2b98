import type { MessageShape } from '@/shared/i18n/types';
import type { settingsKo } from './ko';

/** English messages of the settings area, loaded only when English is chosen. */
export const settingsEn = {
  meta: {
    title: 'Settings — Moat',
    description: 'Language, app integration and other Moat settings.',
  },
  title: 'Settings',
  language: {
    title: 'Language',
    description: 'Choose the language of the app.',
    change: 'Change',
  },
  about: {
    title: 'About',
    version: 'Server version',
    serverTime: 'Server time',
    defaultLocale: 'Default language',
    webviewHost: 'Web-view test page',
    enabled: 'On',
    disabled: 'Off',
    loading: 'Loading…',
    error: 'Could not load app information.',
    retry: 'Try again',
  },
  bridge: {
    title: 'App integration',
    status: 'Running in',
    inWebView: 'The Moat app',
    inBrowser: 'A web browser',
    descriptionWebView: 'These buttons send messages to the app.',
    descriptionBrowser: 'Outside the app, the same buttons use the browser’s own features instead.',
    actions: {
      HAPTIC_FEEDBACK: 'Haptic feedback',
      SHARE_IMAGE: 'Share a card image',
      LOADING: 'Show loading (1\u00a0s)',
      DIMMER_ON: 'Dim the screen (1\u00a0s)',
      DIMMER_OFF: 'Undim',
      NAVIGATE: 'Go home',
      GO_BACK: 'Go back',
      DEEP_LINK: 'Open a deep link',
      LOCAL_STORAGE_SET: 'Save language in the app',
    },
    shareTitle: 'Moat',
    shareText: 'Every portfolio in one place',
    sent: 'Sent: {{action}}',
  },
  feedback: {
    title: 'Feedback',
    description: 'Tell us what got in your way or what you would like.',
    open: 'Send feedback',
  },
} as const satisfies MessageShape<typeof settingsKo>;
