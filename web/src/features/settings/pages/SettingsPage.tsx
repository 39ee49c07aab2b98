import { useTranslation } from '@/shared/i18n/useTranslation';
import { usePageMeta } from '@/shared/page-meta/usePageMeta';
import { AboutSection } from '../components/AboutSection';
import { BridgeSection } from '../components/BridgeSection';
import { FeedbackSection } from '../components/FeedbackSection';
import { LanguageSection } from '../components/LanguageSection';
import '../components/settings.css';

export { messagesReady } from '../locales/messages';

/** Settings: language, app information, the mobile-app integration, and feedback. */
export function SettingsPage() {
  const { t } = useTranslation('settings');
  usePageMeta({ title: t('meta.title'), description: t('meta.description') });
  return (
    <div className="settings">
      <h1 className="settings__title">{t('title')}</h1>
      <LanguageSection />
      <AboutSection />
      <BridgeSection />
      <FeedbackSection />
    </div>
  );
}
