import type { ReactNode } from 'react';
import { useTranslation } from '@/shared/i18n/useTranslation';

/** One live rule under a field: marked met or not as the member types. */
export function Rule({ met, children }: { met: boolean; children: ReactNode }) {
  const { t } = useTranslation('auth');
  return (
    <span className={`rule${met ? ' rule--met' : ''}`} data-met={met}>
      <span className="rule__mark" aria-hidden="true">
        {met ? '✓' : '•'}
      </span>
      {children}
      <span className="visually-hidden"> ({met ? t('rules.met') : t('rules.unmet')})</span>
    </span>
  );
}
