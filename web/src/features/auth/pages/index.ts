/**
 * The accounts area's pages, one lazy chunk for the router (`src/app/routes.tsx`): they
 * share most of their code, and one dynamic import keeps the first page's entry small.
 */
export { messagesReady } from '../locales/messages';
export { LoginPage } from './LoginPage';
export { SignupPage } from './SignupPage';
export { SocialSignupPage } from './SocialSignupPage';
export { AuthCompletePage } from './AuthCompletePage';
export { AccountRoute } from './AccountPage';
export { ProfilePage } from './ProfilePage';
export { ForgotPasswordPage } from './ForgotPasswordPage';
export { ResetPasswordPage } from './ResetPasswordPage';
export { VerifyEmailPage } from './VerifyEmailPage';
// The route modal `?deleteAccount=routeModalTrue` (settings opens it), in the same chunk.
export { DeleteAccountModal } from '../components/DeleteAccountModal';
