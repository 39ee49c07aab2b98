import { useAmountsLocked } from '@/entities/member/model/amounts-lock';
import { useBridge } from '@/shared/bridge/BridgeProvider';
import { useLocale } from '@/shared/i18n/useLocale';
import { useToast } from '@/shared/ui/toast';
import { usePortfolioT } from '../locales/messages';
import { drawShareCard, shareCardModel, shareColors, shareFileName } from '../lib/share';
import type { Valuation } from '../api/valuation';

/**
 * "공유": draws the portfolio's summary card (amounts masked while the lock is on) and
 * hands it to the bridge's SHARE_IMAGE: the app's share sheet inside its web view; in a
 * browser the Web Share API with the PNG as a file where it can, else a download.
 */
export function ShareButton({ name, valuation }: { name: string; valuation: Valuation | undefined }) {
  const t = usePortfolioT();
  const locale = useLocale();
  const toast = useToast();
  const { send } = useBridge();
  const [locked] = useAmountsLocked();

  const onShare = () => {
    if (!valuation) return;
    const model = shareCardModel({ name, valuation, locked, locale, t });
    const dataUrl = drawShareCard(model, shareColors());
    if (!dataUrl) {
      toast.show(t('share.failed'), { tone: 'error' });
      return;
    }
    send({ type: 'SHARE_IMAGE', payload: { dataUrl, fileName: shareFileName(name), title: name, text: t('share.text') } });
  };

  return (
    <button
      type="button"
      className="button button--secondary pf-share"
      onClick={onShare}
      disabled={!valuation || !name}
      aria-label={t('share.label')}
      data-testid="share"
    >
      <svg viewBox="0 0 24 24" width="18" height="18" fill="none" stroke="currentColor" strokeWidth="2" aria-hidden="true">
        <path d="M12 15V3m0 0L7.5 7.5M12 3l4.5 4.5M5 12v7a2 2 0 0 0 2 2h10a2 2 0 0 0 2-2v-7" strokeLinecap="round" strokeLinejoin="round" />
      </svg>
      <span>{t('share.button')}</span>
    </button>
  );
}
