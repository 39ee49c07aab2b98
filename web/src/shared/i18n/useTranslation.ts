import { useMemo, useSyncExternalStore } from 'react';
import type { FlatNamespace, TFunction } from 'i18next';
import { i18n } from './i18n';
import type { Translator } from './translator';

const subscribe = (onChange: () => void) => i18n.on('languageChanged', onChange);
const language = () => i18n.language;

/**
 * `t` of namespace `ns` (the shell's, `translation`, by default) in the current language,
 * and the instance; the component re-renders, with a new `t`, when the language changes.
 * Keys and placeholder values are type-checked against the Korean source messages.
 */
export function useTranslation<const N extends FlatNamespace = 'translation'>(ns?: N): { t: TFunction<N>; i18n: Translator } {
  const lng = useSyncExternalStore(subscribe, language, language);
  const t = useMemo(() => i18n.getFixedT(lng, ns) as unknown as TFunction<N>, [lng, ns]);
  return { t, i18n };
}
