import type { ComponentType } from 'react';
import { useTranslation } from 'react-i18next';
import { AppLink } from '@/shared/ui/AppLink';
import { usePageMeta } from '@/shared/page-meta/usePageMeta';
import { FeatureCard, type FeatureCardProps } from './FeatureCard';
import { ChatIcon, CheckIcon, DividendIcon, NewsIcon, PortfolioIcon, ServerIcon } from './icons';
import { PortfolioPreview } from './PortfolioPreview';
import './home.css';

export { messagesReady } from './messages';

type FeatureKey = 'portfolios' | 'dividends' | 'news' | 'community';

const FEATURES: readonly { key: FeatureKey; icon: ComponentType; tone: FeatureCardProps['tone'] }[] = [
  { key: 'portfolios', icon: PortfolioIcon, tone: 'blue' },
  { key: 'dividends', icon: DividendIcon, tone: 'teal' },
  { key: 'news', icon: NewsIcon, tone: 'amber' },
  { key: 'community', icon: ChatIcon, tone: 'violet' },
];

const SELF_HOST_POINTS = ['binary', 'sqlite', 'postgres'] as const;

// A button, not a `#features` link: a hash change would be a history entry of its own.
function scrollToFeatures() {
  const section = document.getElementById('features');
  section?.scrollIntoView({ behavior: 'smooth', block: 'start' });
  section?.querySelector<HTMLElement>('h2')?.focus({ preventScroll: true });
}

/** Until market data exists, the home page says what Moat is and what is coming. */
export function HomePage() {
  const { t } = useTranslation('home');
  usePageMeta({ title: t('meta.title'), description: t('meta.description') });

  return (
    <div className="home">
      <section className="hero" aria-labelledby="home-title">
        <div className="hero__text">
          <p className="hero__eyebrow">{t('eyebrow')}</p>
          <h1 id="home-title" className="hero__title">
            {t('title')}
          </h1>
          <p className="hero__lead">{t('lead')}</p>
          <div className="hero__actions">
            <button type="button" className="button button--primary" onClick={scrollToFeatures}>
              {t('ctaFeatures')}
            </button>
            <AppLink className="button button--secondary" to="/settings">
              {t('ctaSettings')}
            </AppLink>
          </div>
        </div>
        <div className="hero__visual">
          <PortfolioPreview />
        </div>
      </section>

      <section id="features" className="home-section" aria-labelledby="features-title">
        <div className="home-section__head">
          <h2 id="features-title" className="home-section__title" tabIndex={-1}>
            {t('featuresTitle')}
          </h2>
          <p className="home-section__lead">{t('featuresLead')}</p>
        </div>
        <ul className="feature-grid">
          {FEATURES.map(({ key, icon: Icon, tone }) => (
            <FeatureCard
              key={key}
              icon={<Icon />}
              tone={tone}
              title={t(`features.${key}.title`)}
              body={t(`features.${key}.body`)}
              badge={t('comingSoon')}
            />
          ))}
        </ul>
      </section>

      <section className="home-section self-host card" aria-labelledby="self-host-title">
        <div className="self-host__text">
          <div className="self-host__icon">
            <ServerIcon />
          </div>
          <h2 id="self-host-title" className="home-section__title">
            {t('selfHost.title')}
          </h2>
          <p className="self-host__body">{t('selfHost.body')}</p>
          <ul className="self-host__points">
            {SELF_HOST_POINTS.map((key) => (
              <li key={key}>
                <CheckIcon />
                {t(`selfHost.points.${key}`)}
              </li>
            ))}
          </ul>
        </div>
        <pre className="terminal" aria-label="moat">
          <code>
            <span className="terminal__prompt">$ </span>./moat{'\n'}
            <span className="terminal__out">Moat is running at http://127.0.0.1:8080</span>
            {'\n\n'}
            <span className="terminal__prompt">$ </span>MOAT_DATABASE_URL=postgres://… ./moat
          </code>
        </pre>
      </section>

      <p className="home__disclaimer">{t('disclaimer')}</p>
    </div>
  );
}
