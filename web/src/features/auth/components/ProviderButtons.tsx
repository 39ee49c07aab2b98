import { useTranslation } from '@/shared/i18n/useTranslation';
import { writeStorage } from '@/shared/lib/storage';
import { providerStartUrl } from '../api/oidc';
import type { OidcProvider } from '../api/oidc';

const PRESETS = new Set(['kakao', 'naver', 'google', 'apple']);

export interface ProviderButtonsProps {
  providers: readonly OidcProvider[];
  /** Where to come back to after the provider. */
  next: string;
  /** The last platform used: that provider comes first, marked. */
  last?: string | undefined;
  /** Label of each button (default: "Continue with {name}"). */
  label?: (name: string) => string;
}

/** One button per configured OpenID provider; each starts the server's flow. */
export function ProviderButtons({ providers, next, last, label }: ProviderButtonsProps) {
  const { t } = useTranslation('auth');
  const ordered = [...providers].sort((a, b) => Number(b.id === last) - Number(a.id === last));
  return (
    <ul className="providers">
      {ordered.map((p) => (
        <li key={p.id}>
          <a
            className={`button provider provider--${p.preset && PRESETS.has(p.preset) ? p.preset : 'other'}`}
            href={providerStartUrl(p.id, next)}
            data-testid={`oidc-provider-${p.id}`}
            data-last-used={p.id === last || undefined}
            onClick={() => writeStorage('MOAT_LOGIN_PLATFORM', p.id)}
          >
            <span className="provider__label">{label ? label(p.name) : t('login.continueWith', { name: p.name })}</span>
            {p.id === last && <span className="badge badge--last">{t('login.lastUsed')}</span>}
          </a>
        </li>
      ))}
    </ul>
  );
}
