/**
 * Accounts: log-in, sign-up (email and social), the account page and public profiles,
 * and the header's member item.
 */
import type { Area } from '@/shared/area/types';
import { lazyComponent, lazyPage } from '@/shared/area/lazy';
import { ConsentGateSlot } from './components/ConsentGateSlot';
import { HeaderAccount } from './components/HeaderAccount';

export type { authKo as AuthMessages } from './locales/ko';

// One chunk: the pages share most of their code. `/settings/account` checks for a member.
const pages = () => import('./pages');

export const authArea = {
  id: 'auth',
  routes: [
    { path: '/login', Page: lazyPage(pages, 'LoginPage') },
    { path: '/signup', Page: lazyPage(pages, 'SignupPage') },
    { path: '/signup/social', Page: lazyPage(pages, 'SocialSignupPage') },
    { path: '/auth/complete', Page: lazyPage(pages, 'AuthCompletePage') },
    { path: '/forgot-password', Page: lazyPage(pages, 'ForgotPasswordPage') },
    { path: '/reset-password', Page: lazyPage(pages, 'ResetPasswordPage') },
    { path: '/verify-email', Page: lazyPage(pages, 'VerifyEmailPage') },
    { path: '/settings/account', Page: lazyPage(pages, 'AccountRoute') },
    { path: '/u/:nickname', Page: lazyPage(pages, 'ProfilePage') },
  ],
  modals: {
    // Opened from settings: the deletion dialog, which asks for the password.
    deleteAccount: lazyComponent(pages, 'DeleteAccountModal').Component,
  },
  slots: {
    header: [
      { id: 'account', order: 20, Component: HeaderAccount },
      // Renders nothing unless the member must accept a new version of the terms or privacy policy.
      { id: 'consent', order: 99, Component: ConsentGateSlot },
    ],
  },
} as const satisfies Area;
