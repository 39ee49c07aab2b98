import { useTranslation } from '@/shared/i18n/useTranslation';
import { usePageMeta } from '@/shared/page-meta/usePageMeta';
import { AccountSection } from '../components/AccountSection';
import { ContactSection } from '../components/ContactSection';
import { FeedbackSection } from '../components/FeedbackSection';
import { LanguageSection } from '../components/LanguageSection';
import { LegalSection } from '../components/LegalSection';
import '../components/settings.css';

export { messagesReady } from '../locales/messages';
// The route modals of the terms and the privacy policy, in the page's chunk.
export { PrivacyModal, TermsModal } from '../components/LegalModal';

/**
 * Settings, for members and visitors: language, the terms and the privacy policy, the
 * operator's contact, feedback, and the account (log-out, deletion; a visitor's log-in).
 * The developers' tools (server version and clock, the bridge's actions) live on the
 * web-view host page and in the operator's console.
 */
export function SettingsPage() {
  const { t } = useTranslation('settings');
  usePageMeta({ title: t('meta.title'), description: t('meta.description') });
  return (
    <div className="settings">
      <h1 className="settings__title">{t('title')}</h1>
      <LanguageSection />
      <AccountSection />
      <LegalSection />
      <ContactSection />
      <FeedbackSection />
    </div>
  );
}
