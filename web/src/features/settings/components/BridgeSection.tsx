import { useTranslation } from '@/shared/i18n/useTranslation';
import type { BridgeAction, BridgeActionType } from '@/shared/bridge/actions';
import { useBridge } from '@/shared/bridge/BridgeProvider';
import { useLocale } from '@/shared/i18n/useLocale';
import { STORAGE_KEYS } from '@/shared/lib/storage';
import { useToast } from '@/shared/ui/toast';
import { renderShareCard } from '../lib/shareCard';

/** How long the loading indicator and the dimmer stay on in the demo. */
export const BRIDGE_DEMO_MS = 1000;

/** Every action, in the order the buttons appear. */
const ACTIONS: readonly BridgeActionType[] = [
  'HAPTIC_FEEDBACK',
  'SHARE_IMAGE',
  'LOADING',
  'DIMMER_ON',
  'DIMMER_OFF',
  'NAVIGATE',
  'GO_BACK',
  'DEEP_LINK',
  'LOCAL_STORAGE_SET',
];

/**
 * "앱 연동": where the page runs, and one button per web → app action. In the app's web
 * view they post to the app (the web-view host page records them); in a browser the same
 * buttons run the browser fallbacks.
 */
export function BridgeSection() {
  const { t } = useTranslation('settings');
  const { send, inWebView } = useBridge();
  const locale = useLocale();
  const toast = useToast();

  const run = (type: BridgeActionType) => {
    const actions = actionsFor(type);
    if (!actions) {
      toast.show(t('bridge.actions.SHARE_IMAGE'), { tone: 'error' });
      return;
    }
    actions.now.forEach(send);
    if (actions.later) {
      const later = actions.later;
      setTimeout(() => send(later), BRIDGE_DEMO_MS);
    }
    if (inWebView) toast.show(t('bridge.sent', { action: type }));
  };

  const actionsFor = (type: BridgeActionType): { now: BridgeAction[]; later?: BridgeAction } | null => {
    switch (type) {
      case 'HAPTIC_FEEDBACK':
        return { now: [{ type, payload: { style: 'medium' } }] };
      case 'SHARE_IMAGE': {
        const title = t('bridge.shareTitle');
        const text = t('bridge.shareText');
        const dataUrl = renderShareCard({ title, text });
        return dataUrl ? { now: [{ type, payload: { dataUrl, fileName: 'moat-card.png', title, text } }] } : null;
      }
      case 'LOADING':
        return { now: [{ type, payload: { visible: true } }], later: { type, payload: { visible: false } } };
      case 'DIMMER_ON':
        return { now: [{ type, payload: { opacity: 0.5 } }], later: { type: 'DIMMER_OFF', payload: null } };
      case 'DIMMER_OFF':
        return { now: [{ type, payload: null }] };
      case 'NAVIGATE':
        return { now: [{ type, payload: { path: '/' } }] };
      case 'GO_BACK':
        return { now: [{ type, payload: null }] };
      case 'DEEP_LINK':
        return { now: [{ type, payload: { url: new URL('/', window.location.origin).href } }] };
      case 'LOCAL_STORAGE_SET':
        return { now: [{ type, payload: { key: STORAGE_KEYS.MOAT_LOCALE, value: locale } }] };
    }
  };

  return (
    <section className="settings-section card" aria-labelledby="settings-bridge-title">
      <h2 id="settings-bridge-title" className="settings-section__title">
        {t('bridge.title')}
      </h2>
      <div className="settings-row">
        <div className="settings-row__text">
          <span className="settings-row__hint">{t('bridge.status')}</span>
          <span className="settings-row__value" data-testid="bridge-status" data-in-webview={inWebView}>
            <span className={`status-dot ${inWebView ? 'status-dot--on' : ''}`} aria-hidden="true" />
            {inWebView ? t('bridge.inWebView') : t('bridge.inBrowser')}
          </span>
        </div>
      </div>
      <p className="settings-section__description">
        {inWebView ? t('bridge.descriptionWebView') : t('bridge.descriptionBrowser')}
      </p>
      <div className="bridge-actions">
        {ACTIONS.map((type) => (
          <button
            key={type}
            type="button"
            className="button button--secondary bridge-actions__button"
            data-testid={`bridge-${type}`}
            onClick={() => run(type)}
          >
            {t(`bridge.actions.${type}`)}
          </button>
        ))}
      </div>
    </section>
  );
}
