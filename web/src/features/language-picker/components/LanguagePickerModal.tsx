import { useRef } from 'react';
import { useTranslation } from '@/shared/i18n/useTranslation';
import { LOCALES, LOCALE_NAMES, setLocale, type Locale } from '@/shared/i18n/i18n';
import { useLocale } from '@/shared/i18n/useLocale';
import { Modal } from '@/shared/ui/Modal';
import { useToast } from '@/shared/ui/toast';
import './language-picker.css';

export interface LanguagePickerModalProps {
  onClose: () => void;
}

/**
 * Route modal `?language=routeModalTrue`: pick 한국어 or English. The choice applies at
 * once and is remembered. A tap or click also closes the modal; arrow keys only switch,
 * so keyboard users can compare before closing.
 */
export function LanguagePickerModal({ onClose }: LanguagePickerModalProps) {
  const { t, i18n } = useTranslation();
  const locale = useLocale();
  const toast = useToast();
  const byPointer = useRef(false);

  const choose = async (next: Locale) => {
    const closeAfter = byPointer.current;
    byPointer.current = false;
    if (next !== locale) {
      await setLocale(next);
      toast.show(i18n.t('languagePicker.changed'), { tone: 'success' });
    }
    if (closeAfter) onClose();
  };

  return (
    <Modal title={t('languagePicker.title')} closeLabel={t('common.close')} onClose={onClose} testId="modal-language">
      <fieldset className="language-options">
        <legend className="visually-hidden">{t('languagePicker.title')}</legend>
        {LOCALES.map((option) => (
          <label
            key={option}
            className="language-option"
            onPointerDown={() => {
              byPointer.current = true;
            }}
          >
            <input
              type="radio"
              name="moat-locale"
              value={option}
              checked={option === locale}
              onChange={() => void choose(option)}
              onClick={() => {
                // A click on the already chosen language still closes on tap.
                if (option === locale && byPointer.current) {
                  byPointer.current = false;
                  onClose();
                }
              }}
              data-testid={`language-option-${option}`}
              data-autofocus={option === locale ? '' : undefined}
              className="language-option__input"
            />
            <span className="language-option__name" lang={option}>
              {LOCALE_NAMES[option]}
            </span>
            <svg className="language-option__check" viewBox="0 0 24 24" width="22" height="22" aria-hidden="true">
              <path d="M5 12.5l4.5 4.5L19 7.5" fill="none" stroke="currentColor" strokeWidth="2.4" strokeLinecap="round" strokeLinejoin="round" />
            </svg>
          </label>
        ))}
      </fieldset>
    </Modal>
  );
}
