import { useTranslation } from '@/shared/i18n/useTranslation';
import type { ConsentGiven, LegalDocument } from '../api/legal';

export interface ConsentChecksProps {
  documents: readonly LegalDocument[];
  /** Kinds ticked. */
  checked: ReadonlySet<string>;
  onChange: (kind: string, checked: boolean) => void;
  /** Shown under the boxes when the member tried to go on without ticking them all. */
  error?: string;
}

/** One box per document (terms, privacy policy), each with its text a click away. */
export function ConsentChecks({ documents, checked, onChange, error }: ConsentChecksProps) {
  const { t } = useTranslation('auth');
  if (documents.length === 0) return null;
  return (
    <fieldset className="consent" aria-describedby={error ? 'consent-error' : undefined}>
      <legend className="consent__legend">{t('consent.legend')}</legend>
      {documents.map((doc) => {
        const name = t(`consent.kinds.${doc.kind === 'privacy' ? 'privacy' : 'terms'}`);
        return (
          <div key={doc.kind} className="consent__item">
            <label className="consent__label">
              <input
                type="checkbox"
                name={`consent-${doc.kind}`}
                checked={checked.has(doc.kind)}
                onChange={(e) => onChange(doc.kind, e.target.checked)}
                aria-invalid={error !== undefined && !checked.has(doc.kind)}
              />
              {t('consent.accept', { name, version: doc.version })}
            </label>
            <details className="consent__text">
              <summary>{t('consent.read', { name })}</summary>
              <div className="consent__body">{doc.body}</div>
            </details>
          </div>
        );
      })}
      {error && (
        <p id="consent-error" className="field__error">
          {error}
        </p>
      )}
    </fieldset>
  );
}

/** The consents a form sends: the current version of each ticked document. */
export function consentsOf(documents: readonly LegalDocument[], checked: ReadonlySet<string>): ConsentGiven[] {
  return documents.filter((d) => checked.has(d.kind)).map((d) => ({ kind: d.kind, version: d.version }));
}
