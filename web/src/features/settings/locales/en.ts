import type { MessageShape } from '@/shared/i18n/types';
import type { settingsKo } from './ko';

/** English messages of the settings area, loaded only when English is chosen. */
export const settingsEn = {
  meta: {
    title: 'Settings — Moat',
    description: 'Language, account, terms, contact and other Moat settings.',
  },
  title: 'Settings',
  language: {
    title: 'Language',
    description: 'Choose the language of the app.',
    change: 'Change',
  },
  account: {
    title: 'Account',
    manage: 'Manage account',
    logout: 'Log out',
    loggedOut: 'You are logged out.',
    delete: 'Delete account',
    deleteHint: 'Deletes your account and all its data. You will be asked for your password.',
    visitor: 'Log in to see your portfolios on every device.',
    login: 'Log in',
  },
  legal: {
    title: 'Terms and policies',
    terms: 'Terms of service',
    privacy: 'Privacy policy',
    version: 'Version {{version}} · in effect from {{date}}',
    loading: 'Loading…',
    error: 'The document could not be loaded.',
    retry: 'Try again',
    none: 'Nothing has been published yet.',
  },
  contact: {
    title: 'Contact',
    description: 'Write to the operator by e-mail.',
  },
  feedback: {
    title: 'Feedback',
    description: 'Tell us what got in your way or what you would like.',
    open: 'Send feedback',
  },
} as const satisfies MessageShape<typeof settingsKo>;
